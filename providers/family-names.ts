/**
 * The spec's family words that are not a built-in folder's own name, each with the folder
 * that answers to it, and built-in names that were renamed, each loading for one more release
 * with a warning naming its replacement. The loader (`core/loader/resolve-plugin-specifier.ts`)
 * reads this module from the providers' folder at start; the core keeps no list of families.
 */
export const familyNames = {
  aliases: {
    wn: 'wn-hx',
    hx: 'wn-hx',
    dse: 'dsr',
    sdx: 'dsx',
    tts: 'audio',
    stt: 'audio',
  },
  renamed: {
    'dashscope-video': 'wn-hx',
    'openai-audio': 'audio',
  },
} satisfies { aliases: Record<string, string>; renamed: Record<string, string> };
