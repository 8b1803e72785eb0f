/** "/": logged-in users go on to the user centre; visitors see the public landing. */
import { Navigate } from "react-router";
import { useSession } from "../providers/use-session";
import { HOME_LOGGED_IN } from "../routing/redirects";
import { Landing } from "./landing";

export default function HomePage() {
  const { loggedIn } = useSession();
  return loggedIn ? <Navigate to={HOME_LOGGED_IN} replace /> : <Landing />;
}
