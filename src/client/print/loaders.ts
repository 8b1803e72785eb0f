/**
 * Route loaders of the print pages: POST the work id to the print endpoint; a refusal
 * (not logged in, not allowed, unknown work) fails the route with the server's info text,
 * which the router's error screen shows.
 */
import type { LoaderFunctionArgs } from "react-router";
import type { CopyrightPrint, RegistrationPrint } from "../../shared/work/print";
import { loaderData, post } from "../request";

/** Anything but digits goes to the server as is, so its own message explains the refusal. */
const workOf = (params: LoaderFunctionArgs["params"]) => (/^\d+$/.test(params.workId ?? "") ? Number(params.workId) : params.workId);

export const registrationLoader = ({ params }: LoaderFunctionArgs) =>
  loaderData(post<RegistrationPrint>("/Backend/Work/work/registration", { work: workOf(params) }, { notify: false }));

export const copyrightLoader = ({ params }: LoaderFunctionArgs) =>
  loaderData(post<CopyrightPrint>("/Backend/Work/work/copyright", { work: workOf(params) }, { notify: false }));
