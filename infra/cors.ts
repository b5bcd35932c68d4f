// CORS settings of the stack and the local server: defined once, in lib/http/cors.ts.
export { CORS } from '../lib/http/cors';
