import { brokenJson } from './classes/broken-json.js';
import { deepNesting } from './classes/deep-nesting.js';
import { headerInjection } from './classes/header-injection.js';
import { hostileUrls } from './classes/hostile-urls.js';
import { hugeValues } from './classes/huge-values.js';
import { inheritedNames } from './classes/inherited-names.js';
import { oddUnicode } from './classes/odd-unicode.js';
import { pathVariants } from './classes/path-variants.js';
import { wrongTypes } from './classes/wrong-types.js';
import type { InputClass } from './input-class.js';

export type { InputClass } from './input-class.js';

/** Every class of bad input the fuzz sends, each with its own seed. */
export const inputClasses: InputClass[] = [brokenJson, wrongTypes, hugeValues, oddUnicode, hostileUrls, headerInjection, deepNesting, pathVariants, inheritedNames];
