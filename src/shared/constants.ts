/** Business constants of the seed (section 9), one place for both sides. */

/** Default lifetime of a cached GET reply. */
export const REQUEST_CACHE_TTL_MS = 60000;

/** The error screen redirects home after this many seconds. */
export const ERROR_REDIRECT_SECONDS = 5;
/** The error screen shows at most this many characters of the stack. */
export const ERROR_STACK_MAX_CHARS = 300;

/** The pulsing loading logo: refresh interval, phase step (opacity = sin(phase), reset past π), box size. */
export const LOADING_TICK_MS = 50;
export const LOADING_PHASE_STEP = 0.1;
export const LOADING_BOX_HEIGHT_PX = 150;
export const LOADING_BOX_PADDING_PX = 20;
