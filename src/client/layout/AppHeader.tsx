/** The header of the admin application: the current user's HeaderBar. */
import { useSession } from "../providers/use-session";
import { HeaderBar } from "./HeaderBar";

export function AppHeader() {
  const { user, loggedIn } = useSession();
  return <HeaderBar user={user} loggedIn={loggedIn} />;
}
