/**
 * The browser build's stand-in for axios. `@refinedev/simple-rest` creates an axios
 * instance when it is loaded, but the project hands its provider an adapter over the seed's
 * request client (providers/data.ts), which stays the one HTTP client of the pages. So
 * vite.config.ts maps axios here for the browser build: nothing in it can send a request
 * (a call would throw), and axios's code is not shipped. Tests and Node use the real one.
 */
const refuse = () => {
  throw new Error("axios is not part of the browser build: use src/client/request.ts");
};
const instance = {
  interceptors: { request: { use: () => 0 }, response: { use: () => 0 } },
  defaults: { headers: { common: {} } },
  request: refuse,
  get: refuse,
  delete: refuse,
  head: refuse,
  options: refuse,
  post: refuse,
  put: refuse,
  patch: refuse,
};
const axios = { create: () => instance };
export default axios;
