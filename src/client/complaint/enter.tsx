/** /complaint: the appeal entry. Switches the menu to the complaint area for this browser session. */
import { useEffect } from "react";
import { Navigate } from "react-router";
import { setComplaintView } from "../layout/complaint-view";

export default function ComplaintEntry() {
  useEffect(() => setComplaintView(true), []);
  return <Navigate to="/complaint-view/complaint" replace />;
}
