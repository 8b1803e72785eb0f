/**
 * The entry: an early split by path. The public main page (/mainpage/…) is a light app of
 * its own (src/client/public: React and a small stylesheet, no antd or refine); every other
 * path loads the admin application (admin-main.tsx). Each is a lazy chunk, so a visitor of
 * the main page never downloads the admin bundle. At "/" the server is asked who this is
 * first: a visitor gets the public main page there, a logged-in user the platform (issue 14).
 * The login, registration and password pages are a light entry too (src/client/login): the admin
 * bundle loads after login.
 */
import { isPublicPath } from "./public/paths";
import { visitorAtHome } from "./public/home-choice";
import { isLightAccountPath } from "./login/paths";
import { startEarlyRequests } from "./early-requests";
import { loadAntdStyles } from "./antd-styles";

// Each import() stays a statement of its own: the build's preload of a chunk's CSS and imports
// follows one import() per expression (a ternary of two got the admin bundle's list for both).
function loadPublic() {
  return import("./public/main");
}
// antd's extracted stylesheet loads alongside the admin bundle; the app mounts once both are
// in (cssinjs looks for the file's map once, at antd's first render).
function loadAdmin() {
  const styles = loadAntdStyles();
  return import("./admin-main").then(async (m) => {
    await styles;
    m.mountAdmin();
  });
}
function loadLogin() {
  return import("./login/main");
}

if (isPublicPath(location.pathname)) void loadPublic();
// The login, registration and password pages: a light entry of their own (no refine, no policy engine, no admin bundle).
else if (isLightAccountPath(location.pathname)) void loadLogin();
else if (location.pathname !== "/") {
  // The session check and the page's first GETs go out while the admin bundle downloads (issue 15).
  startEarlyRequests();
  void loadAdmin();
} else
  void visitorAtHome().then(async (visitor) => {
    if (visitor) await loadPublic();
    else await loadAdmin();
  });
