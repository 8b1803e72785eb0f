/**
 * Route loaders of the print pages: POST the work id to the print endpoint. Not logged in
 * (401): to the student login page with this page as the return address, back here after
 * logging in. Any other refusal (not allowed, unknown work) fails the route with the
 * server's info text, which the router's error screen shows (without a stack).
 */
import { redirect, type LoaderFunctionArgs } from "react-router";
import type { CopyrightPrint, RegistrationPrint } from "../../shared/work/print";
import { loaderData, post, type ClientReply } from "../request";
import { loginPath } from "../routing/redirects";

/** Anything but digits goes to the server as is, so its own message explains the refusal. */
const workOf = (params: LoaderFunctionArgs["params"]) =>
  /^\d+$/.test(params.workId ?? "") ? Number(params.workId) : params.workId;

async function printData<T>(args: LoaderFunctionArgs, reply: Promise<ClientReply<T>>): Promise<T> {
  const r = await reply;
  if (r.status === 401) {
    const u = new URL(args.request.url);
    throw redirect(loginPath("student", u.pathname + u.search));
  }
  return loaderData(r);
}

export const registrationLoader = (args: LoaderFunctionArgs) =>
  printData(args, post<RegistrationPrint>("/Backend/Work/work/registration", { work: workOf(args.params) }, { notify: false }));

export const copyrightLoader = (args: LoaderFunctionArgs) =>
  printData(args, post<CopyrightPrint>("/Backend/Work/work/copyright", { work: workOf(args.params) }, { notify: false }));
