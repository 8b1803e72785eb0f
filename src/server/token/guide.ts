/**
 * 对接指南 (issue 16): how other systems use the API with a token. Shown on the API docs
 * page (/Backend/docs, the OpenAPI document's description); docs/integration.md carries the same text.
 */
import { STATUS_TEXT } from "../../shared/errors";

export const INTEGRATION_GUIDE = `
## 对接指南：用 API 令牌从其他系统调用

**令牌**：超级管理员、赛事管理员和学校管理员在「账号安全」页（/account/security）创建 API 令牌：名称、只读或读写、可访问的资源（不超过本人权限）、到期时间（最长一年）。密钥形如 \`swp_<编号>_<密钥>\`，**只在创建时显示一次**，平台只保存其摘要；可随时吊销，页面显示最近使用时间和地址。

- 请求带 \`Authorization: Bearer swp_…\`，以创建者的身份、角色和数据范围执行，不会更多；带令牌的请求忽略 Cookie，不做来源（Origin）检查。
- 令牌不能创建令牌、修改密码或账号安全设置；创建者被锁定或降级后，其令牌立即失效。
- 每个令牌有单独的频率限制（\`API_TOKEN_RATE_MAX\`，每分钟）；用令牌做的每次修改都记入变更日志，并注明令牌名称。
- 过期、已吊销、格式不对的令牌：401「${STATUS_TEXT[401]}」；只读令牌写数据、令牌无权访问的资源：403；不在创建者范围内的记录：404（与不存在的记录同一文字）。
- 本页中标有锁形图标（apiToken）的接口接受令牌，其余只能在浏览器登录后使用。
- 其他网站上的页面（如省里自己的看板）可以跨域调用：带令牌的请求返回 \`Access-Control-Allow-Origin: *\`（不带 Cookie），预检请求允许 \`Authorization\`、\`Content-Type\`、\`X-Envelope\` 头；用 Cookie 登录的请求不能跨域读取。

**两种回复格式**：默认是平台的信封 \`{ "error": 0, "info": "成功", "data": … }\`，列表的 data 为 \`{ "list": […], "total": n }\`。请求头 \`X-Envelope: off\` 时返回裸 JSON（refine \`@refinedev/simple-rest\` 的约定）：列表就是数组，总数在响应头 \`x-total-count\`；出错时 HTTP 状态码不变，正文为 \`{ "message": "…" }\`。

**列表参数**（主数据：学校、专业、奖项、作品类别、赛事、公告、新闻、用户；以及作品列表）：平台自己的 \`current\`/\`pageSize\`/\`sort=name&sort=-id\` 和各筛选项；也接受 simple-rest 的 \`_start\`/\`_end\`（每页最多 500 条，\`_start\` 须为每页条数的整数倍）、\`_sort=name,id&_order=asc,desc\`、\`q\`（同 keyword）以及白名单字段上的 \`<字段>_like\`、\`_gte\`、\`_lte\`、\`_ne\` 和 \`<字段>=值\`（可用字段即可排序的字段）。列表响应都带 \`x-total-count\`。

### 学校：从教务系统同步学生

学校管理员创建读写令牌，资源选「用户」。新建时可不填学校，默认为本校；规则与 Excel 导入相同（用户名、姓名、身份、学号、专业代码、邮箱、手机号的校验和错误文字一致），例如邮箱重复时为「该邮箱已被其他账号使用」，身份填 100（作者（学生））或 99（教师）。

\`\`\`sh
TOKEN=swp_0123456789ab_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
API=https://赛务平台地址/Backend/Admin

# 列出本校学生（按学号查找：keyword 匹配用户名、姓名、邮箱、学号）
curl -s -H "Authorization: Bearer $TOKEN" "$API/user?userType=100&keyword=2026000001&pageSize=100"

# 同一列表的 simple-rest 形式：数组 + x-total-count
curl -si -H "Authorization: Bearer $TOKEN" -H "X-Envelope: off" "$API/user?userType=100&_start=0&_end=100&_sort=id&_order=asc"

# 新建学生（未认领的账号：学生用邮箱认领并设置密码）
curl -s -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  -d '{"username":"s2026000001","name":"张三","role":100,"memberNo":"2026000001","majorCode":"080901","email":"zhangsan@example.edu.cn"}' \\
  "$API/user"

# 修改（只发要改的字段；{id} 为列表或新建返回的 id）
curl -s -X PATCH -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  -d '{"name":"张三丰","phone":"13800000000"}' "$API/user/{id}"
\`\`\`

同步程序的做法：按学号（\`memberNo\`）或用户名把教务数据与 \`GET /user\` 的结果对比，不存在的 \`POST\`，有变化的 \`PATCH\`；出错时 HTTP 状态为 422/403/409，\`info\`（或裸 JSON 的 \`message\`）说明原因，该条不会写入。大批量初次导入仍可用「学生管理」页的 Excel 导入。

### 省赛：拉取已发布的成绩

赛事管理员创建只读令牌，资源选「成绩结果」（需要作品明细时再加「赛事作品」）。

\`\`\`sh
API=https://赛务平台地址/Backend/ContestAdmin/judging
# 我管理的赛事：publishedAt 不为空表示已发布
curl -s -H "Authorization: Bearer $TOKEN" "$API/result-contests"
# 某赛事的结果分组（groups[].key）和发布记录
curl -s -H "Authorization: Bearer $TOKEN" "$API/{contestId}/results"
# 已发布的结果版本（发布时为第 1 版，因申诉变更递增），及某一版本的排名、奖项和晋级
curl -s -H "Authorization: Bearer $TOKEN" "$API/{contestId}/results/versions"
curl -s -H "Authorization: Bearer $TOKEN" "$API/{contestId}/results/versions/{versionId}"
\`\`\`

### refine 应用

未经修改的 \`@refinedev/simple-rest\` 可直接使用：\`dataProvider("https://赛务平台地址/Backend/Admin", axiosInstance)\`，axios 实例带上 \`Authorization: Bearer …\` 和 \`X-Envelope: off\` 两个请求头；资源名为 \`school\`、\`major\`、\`award\`、\`work-type\`、\`contest\`、\`notice\`、\`news\`、\`user\`，作品列表用 \`…/Backend/School\`（本校）或 \`…/Backend/Admin\`（赛事）下的 \`work\`。
`.trim();
