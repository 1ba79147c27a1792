import { fieldError } from '../../core/kit/index.js';
import type { DsxImageMode, DsxModelProfile } from './dsx-model-profiles.js';

/** The role of an image item (spec part 2, `dsx-` fields). */
export type DsxImageRole = 'first_frame' | 'last_frame' | 'reference_image';

/** One image of a request, where it was written. */
export interface DsxImageInput {
  role?: DsxImageRole;
  /** The path of its URL, e.g. `metadata.content[1].image_url.url`. */
  param: string;
  /** The path of its role, e.g. `metadata.content[1].role`. */
  roleParam: string;
}

/** The mode a request's images make, and each image's role (a lone image without one is the first frame). */
export interface DsxImagePlan {
  mode: DsxImageMode;
  roles: DsxImageRole[];
}

const describeModes = (profile: DsxModelProfile): string => {
  const names: Record<DsxImageMode, string> = {
    text: 'text only',
    first_frame: 'a first_frame image',
    first_last_frame: 'first_frame and last_frame images',
    reference_image: 'reference_image images',
  };
  return [...profile.modes].map((mode) => names[mode]).join(', or ');
};

/**
 * Works out the mode from the images' roles and checks it against the model (spec part 2:
 * 1.5 first frame and first+last only; 1.0 lite i2v also reference images; t2v no images;
 * upstreams.md §3.3–§3.4: one image without a role is the first frame, first/last frames
 * do not mix with references). `otherReferences` is how many video and audio references
 * the request has (2.0). The first problem is a 400 naming the image or role it is about.
 */
export function decideDsxImageMode(images: readonly DsxImageInput[], profile: DsxModelProfile, otherReferences = 0): DsxImagePlan {
  const refuse = (param: string, why: string): never => {
    throw fieldError(param, why);
  };
  if (images.length === 0) {
    const mode: DsxImageMode = otherReferences > 0 ? 'reference_image' : 'text';
    if (!profile.modes.has(mode)) refuse('metadata.content', `${profile.id} needs an image: add {"type": "image_url", "image_url": {"url": "..."}} (it takes ${describeModes(profile)})`);
    return { mode, roles: [] };
  }
  if (!profile.modes.has('first_frame') && !profile.modes.has('reference_image')) {
    refuse(images[0]!.param, `${profile.id} takes no images; for image-to-video use dsx-1-0-lite-i2v-250428 or another image model`);
  }
  const roleless = images.filter((image) => image.role === undefined);
  if (roleless.length > 0 && images.length > 1) refuse(roleless[0]!.roleParam, 'with several images, give each one a role: first_frame, last_frame or reference_image');
  const roles: DsxImageRole[] = images.map((image) => image.role ?? (otherReferences > 0 ? 'reference_image' : 'first_frame'));

  const seen = { first_frame: 0, last_frame: 0, reference_image: 0 };
  images.forEach((image, index) => {
    const role = roles[index]!;
    seen[role] += 1;
    if (role !== 'reference_image' && seen[role] > 1) refuse(image.roleParam, `only one ${role} image`);
    if (role === 'reference_image' && seen.reference_image > profile.maxReferenceImages) {
      refuse(image.roleParam, profile.maxReferenceImages === 0 ? `${profile.id} takes no reference images; it takes ${describeModes(profile)}` : `at most ${profile.maxReferenceImages} reference images`);
    }
  });
  const framed = seen.first_frame + seen.last_frame > 0;
  if (framed && (seen.reference_image > 0 || otherReferences > 0)) {
    const index = roles.findIndex((role) => role === (seen.reference_image > 0 ? 'reference_image' : 'first_frame'));
    refuse(images[Math.max(0, index)]!.roleParam, 'first_frame / last_frame images do not mix with reference images, videos or audio; use one mode');
  }
  if (seen.last_frame > 0 && seen.first_frame === 0) refuse(images[roles.indexOf('last_frame')]!.roleParam, 'a last_frame image needs a first_frame image too');
  const mode: DsxImageMode = seen.reference_image > 0 ? 'reference_image' : seen.last_frame > 0 ? 'first_last_frame' : 'first_frame';
  if (!profile.modes.has(mode)) refuse(images[0]!.roleParam, `${profile.id} takes ${describeModes(profile)}`);
  return { mode, roles };
}
