/**
 * The error catalogue of the seed (section 8) and the one error type of the server.
 * Every reply is { error, info, data? }: error 0 is success; otherwise a non-zero code.
 */
export const STATUS_TEXT: Record<number, string> = {
  200: "服务器成功返回请求的数据。",
  201: "新建或修改数据成功。",
  202: "一个请求已经进入后台排队（异步任务）。",
  204: "删除数据成功。",
  400: "发出的请求有错误，服务器没有进行新建或修改数据的操作。",
  401: "用户没有权限（令牌、用户名、密码错误）。",
  403: "用户得到授权，但是访问是被禁止的。",
  404: "发出的请求针对的是不存在的记录，服务器没有进行操作。",
  406: "请求的格式不可得。",
  410: "请求的资源被永久删除，且不会再得到的。",
  413: "上传的内容过大。",
  422: "当创建一个对象时，发生一个验证错误。",
  500: "服务器发生错误，请检查服务器。",
  502: "网关错误。",
  503: "服务不可用，服务器暂时过载或维护。",
  504: "网关超时。",
};

export const REQUEST_ERROR_TITLE = "请求错误";
export const NETWORK_ERROR_TITLE = "网络异常";
export const NETWORK_ERROR_TEXT = "您的网络发生异常，无法连接服务器";

/** Non-zero `error` codes of the envelope. */
export const ERROR_CODE = {
  ok: 0,
  badRequest: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  gone: 410,
  tooLarge: 413,
  conflict: 409,
  validation: 422,
  tooMany: 429,
  internal: 500,
} as const;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

export class DomainError extends Error {
  constructor(
    readonly status: ErrorStatus,
    /** A Chinese sentence the user can act on. */
    readonly info: string,
    readonly field?: string,
    /** more for the client, sent as the reply's data (e.g. the newer version of a refused save) */
    readonly data?: Record<string, unknown>,
  ) {
    super(info);
  }
}

export const badRequest = (info: string) => new DomainError(400, info);
export const unauthenticated = (info = "请先登录") => new DomainError(401, info);
export const forbidden = (info = "您没有权限进行此操作") => new DomainError(403, info);
export const notFound = (info = "记录不存在") => new DomainError(404, info);
export const gone = (info: string) => new DomainError(410, info);
export const invalid = (field: string, info: string) => new DomainError(422, info, field);
export const conflict = (info: string) => new DomainError(409, info);
export const tooLarge = (info: string) => new DomainError(413, info);
