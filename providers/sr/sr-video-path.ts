/** The path of one upstream video under the channel's prefix, its id escaped: `/videos/{id}{suffix}` (upstreams.md §2.9). */
export const srVideoPath = (id: string, suffix = ''): string => `/videos/${encodeURIComponent(id)}${suffix}`;
