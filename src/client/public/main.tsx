/** The light public entry (issue 14): React, the public pages and their stylesheet only. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./public.css";
import { PublicApp } from "./app";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <PublicApp />
  </StrictMode>,
);
