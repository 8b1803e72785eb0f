/** /account/logout: ends the session and goes to the landing page. */
import { useEffect, useRef } from "react";
import { useLogout } from "@refinedev/core";
import { LoadingLogo } from "../components/LoadingLogo";

export default function LogoutPage() {
  const { mutate: logout } = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout();
  }, [logout]);
  return <LoadingLogo />;
}
