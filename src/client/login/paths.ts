/** Which paths the light login entry serves (main.tsx asks before loading any application; tiny on purpose: the public entry loads it too). */
export const isLoginPath = (pathname: string) => /^\/account\/(StudentLogin|TeacherLogin|Login)\/?$/i.test(pathname);
