/** The admin application (everything but the public main page): antd, refine, the route table. Loaded by main.tsx
 * (or by the light login entry, src/client/login/main.tsx, after logging in). */
import "./polyfills";
import "@ant-design/v5-patch-for-react-19";
import "@refinedev/antd/dist/reset.css";
import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

dayjs.locale("zh-cn");

/** Mounts the application on #root: by the entry (main.tsx), or by the light login entry when it hands over. */
export function mountAdmin() {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
