/** The account endpoints the pages call (login/logout go through the authProvider). */
import type { Announcement, RecoveryConfirmBody, RegisterBody, SchoolOption, SecurityView } from "../../shared/account/schema";
import type { TokenCreateBody, TokenCreated, TokenList } from "../../shared/token/schema";
import { del, get, post } from "../request";

const A = "/Backend/Common/account";

export const accountApi = {
  register: (body: RegisterBody) => post<{ id: number; email: string }>(`${A}/register`, body, { notify: false }),
  schoolOptions: (keyword: string, limit = 20) =>
    get<SchoolOption[]>(
      "/Backend/Common/school/options",
      { keyword: keyword || undefined, limit },
      { silent: true, cache: true },
    ),
  verifyEmail: (token: string) => post<{ email: string }>(`${A}/verify-email`, { token }, { notify: false }),
  resendVerification: (email: string) => post(`${A}/resend-verification`, { email }, { notify: false }),
  recoveryRequest: (account: string) => post(`${A}/recovery/request`, { account }, { notify: false }),
  recoveryConfirm: (body: RecoveryConfirmBody) => post(`${A}/recovery/confirm`, body, { notify: false }),
  security: () => get<SecurityView>(`${A}/security`, undefined, { silent: true }),
  changePassword: (oldPassword: string, newPassword: string) => post(`${A}/security/password`, { oldPassword, newPassword }),
  changeEmail: (password: string, email: string) => post<{ email: string }>(`${A}/security/email`, { password, email }),
  endSession: (id: string) => del(`${A}/security/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => post<{ ended: number }>(`${A}/security/sessions/end-others`),
  apiTokens: () => get<TokenList>(`${A}/api-tokens`, undefined, { silent: true }),
  createApiToken: (body: TokenCreateBody) => post<TokenCreated>(`${A}/api-tokens`, body, { notify: false }),
  revokeApiToken: (id: number) => del(`${A}/api-tokens/${id}`),
  announcement: () => get<Announcement>("/Backend/Common/notice/announcement", undefined, { silent: true }),
};
