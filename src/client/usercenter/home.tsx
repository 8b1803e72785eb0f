/**
 * "/" in the platform: logged-in users go on to the user centre. A visitor reaching "/" inside
 * the platform (after logging out, from the error screen) is sent to the page itself, where
 * main.tsx shows the public main page (issue 14); the login choice is /account/choose.
 */
import { useEffect } from "react";
import { Navigate } from "react-router";
import { LoadingLogo } from "../components/LoadingLogo";
import { useSession } from "../providers/use-session";
import { HOME_LOGGED_IN } from "../routing/redirects";

export default function HomePage() {
  const { loggedIn } = useSession();
  useEffect(() => {
    if (!loggedIn) window.location.replace("/");
  }, [loggedIn]);
  return loggedIn ? <Navigate to={HOME_LOGGED_IN} replace /> : <LoadingLogo />;
}
