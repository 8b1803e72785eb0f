/**
 * Complaints and arbitration in a real browser (demo data of complaints-demo.ts: the Zhejiang
 * results published with an open publicity period, three complaints). A visitor files a 投诉
 * with the mailed code and evidence; the complaint reviewer accepts it and gives an opinion;
 * the complaint admin upholds it with disqualification; the public lookup no longer shows the
 * award. The author of the demo's decided 申诉 requests arbitration from complaint-view mode
 * (whose menu ends with its exit entry and on any other route), the arbitrator rules, root
 * confirms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { answerOf, login, selectOption, startE2E, type E2E } from "./harness";

const TARGET = "基于大模型的课堂问答助教";
const TARGET_AUTHOR = "程子昂";
const APPEALED = "渔船作业行为智能监测";
const EMAIL = "gongzhong@example.com";
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const workId = async (e: E2E, name: string) =>
  Number((await e.db.selectFrom("work").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id);
const popconfirmOk = (page: Page) => page.locator(".ant-popover:visible .ant-btn-primary").click();
const menuPaths = (page: Page) =>
  page.locator("[data-menu-path]").evaluateAll((els) => els.map((el) => el.getAttribute("data-menu-path")));

async function publicAward(e: E2E, id: number): Promise<string> {
  const anon = await e.newPage();
  await anon.goto(e.base + "/query-work");
  await anon.getByTestId("query-work-id").fill(String(id));
  await anon.getByTestId("query-author-name").fill(TARGET_AUTHOR);
  await anon.getByTestId("query-submit").click();
  await anon.getByTestId("query-result").waitFor();
  const text = (await anon.getByTestId("query-result").textContent()) ?? "";
  await anon.context().close();
  return text;
}

describe("complaints and arbitration in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
  });
  afterAll(async () => e?.close());

  // One story in stages (each its own test and time limit); later stages use what earlier ones made.
  let target = 0;
  let id = 0;

  it("a visitor verifies an email, files a 投诉 with evidence and finds it under that email", async () => {
    target = await workId(e, TARGET);
    expect(await publicAward(e, target)).toContain("一等奖");

    // The visitor verifies an email with the mailed code and files with evidence.
    const v = await e.newPage();
    await v.goto(e.base + "/complaint");
    await v.getByTestId("complaint-notices").getByText("申诉与投诉须知").waitFor();
    await v.getByRole("tab", { name: "我要投诉" }).click();
    await v.getByPlaceholder("name@example.com").fill(EMAIL);
    await v.getByTestId("send-code").click();
    await expect.poll(() => v.getByTestId("code-sent").textContent()).toContain(`验证码已发送至 ${EMAIL}`);
    const mail = e
      .mailedTexts()
      .filter((t) => t.includes("验证码是"))
      .pop()!;
    const code = /验证码是 (\d{6})/.exec(mail)![1];
    await v.getByPlaceholder("6 位数字").fill(code);
    await v.getByTestId("verify-code").click();
    await v.getByTestId("visitor-verified").waitFor();

    await v.getByTestId("complaint-work-id").fill(String(target));
    await expect.poll(() => v.getByTestId("complaint-work").textContent()).toContain("受理中");
    await v.getByTestId("complaint-category").click();
    await selectOption(v, "抄袭、剽窃").click();
    await v
      .getByTestId("complaint-text")
      .fill("该作品的问答界面和提示词设计与某开源项目完全一致，代码仓库提交记录也显示为直接复制，请核查。");
    await v.getByTestId("complaint-name").fill("赵公众");
    await v.getByTestId("complaint-phone").fill("13800001111");
    await v
      .getByTestId("evidence-upload")
      .locator("input[type=file]")
      .setInputFiles({ name: "截图.png", mimeType: "image/png", buffer: PNG });
    await v.getByTestId("evidence-name").getByText("截图.png").waitFor();
    await v.getByTestId("complaint-submit").click();
    await v.getByTestId("complaint-filed").waitFor();
    id = Number(/编号 (\d+)/.exec((await v.getByTestId("complaint-filed").textContent())!)![1]);

    // Looking it up with the same verified email.
    await v.getByRole("button", { name: "查询我的投诉" }).click();
    await expect.poll(() => v.getByTestId("visitor-complaints").textContent()).toContain(TARGET);
    await expect.poll(() => v.getByTestId("visitor-complaints").textContent()).toContain("待受理");
    await v.context().close();
  });

  it("the complaint reviewer sees the filer and the evidence, accepts and gives an opinion", async () => {
    const r = await login(e, "complaint_reviewer");
    await r.goto(`${e.base}/ComplaintManagement`);
    await r.getByTestId("complaint-list").getByText(TARGET).click();
    await expect.poll(() => r.getByTestId("handler-filer").textContent()).toContain("赵公众");
    await r.getByTestId("evidence-list").getByText("截图.png").waitFor();
    await r.getByTestId("step-accept").click();
    await popconfirmOk(r);
    await r.getByTestId("opinion-form").waitFor();
    await r.getByTestId("decision-outcome").getByText("成立", { exact: true }).click();
    await r.getByTestId("decision-action").getByText("取消作品资格（撤销奖项）").click();
    await r.getByTestId("opinion-text").fill("经比对，作品核心代码与开源项目一致且未注明来源，投诉成立，建议取消作品资格。");
    await r.getByTestId("opinion-submit").click();
    await expect.poll(() => r.getByTestId("handler-opinion").textContent()).toContain("成立 · 取消作品资格");
    await r.context().close();
  });

  it("the complaint admin upholds it with disqualification (prefilled from the opinion); the public lookup drops the award", async () => {
    const a = await login(e, "complaint_admin");
    await a.goto(`${e.base}/ComplaintManagement?id=${id}`);
    await a.getByTestId("decision-form").waitFor();
    await a.getByTestId("decision-text").fill("投诉成立：作品存在抄袭，取消作品资格并撤销所获奖项。");
    await a.getByTestId("decision-submit").click();
    await answerOf(a, "POST", `/complaints/${id}/decision`, () => popconfirmOk(a));
    await expect.poll(() => a.getByTestId("handler-decision").textContent()).toContain("成立 · 取消作品资格");
    await expect
      .poll(() => a.getByTestId("complaint-drawer").getByTestId("complaint-state").first().textContent())
      .toContain("已决定");
    await a.context().close();

    await expect.poll(() => publicAward(e, target), { timeout: 15000 }).not.toContain("一等奖");
  });

  it("the work's first author sees the complaint and the decision, never who filed it", async () => {
    const author = await e.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_author.work_id", "=", target)
      .where("work_author.rank", "=", 1)
      .executeTakeFirstOrThrow();
    const s = await login(e, author.username, "/account/StudentLogin");
    await s.goto(e.base + "/complaint-view/view-complaint");
    const card = s.getByTestId("filer-complaint").filter({ hasText: TARGET });
    await expect.poll(() => card.getByTestId("filer-decision").textContent()).toContain("取消作品资格");
    const seen = (await card.textContent()) ?? "";
    expect(seen).toContain("关于您的作品");
    for (const secret of ["赵公众", "13800001111", EMAIL]) expect(seen).not.toContain(secret);
    await s.context().close();
  });

  let appealId = 0;

  it("the author requests arbitration from complaint-view mode, which ends on leaving the area", async () => {
    const appealed = await workId(e, APPEALED);
    const c = await e.db
      .selectFrom("complaint")
      .select("id")
      .where("work_id", "=", appealed)
      .where("state", "=", "decided")
      .executeTakeFirstOrThrow();
    const author = await e.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_author.work_id", "=", appealed)
      .where("work_author.rank", "=", 1)
      .executeTakeFirstOrThrow();

    const s = await login(e, author.username, "/account/StudentLogin");
    // The work's page offers 申诉, leading to the form for that work.
    await s.goto(e.base + "/author/work-management");
    await s.getByTestId("my-works").locator("tr", { hasText: APPEALED }).getByTestId("work-appeal").click();
    await s.waitForURL(/\/complaint-view\/complaint\?type=appeal&workId=\d+/);
    await expect.poll(() => s.getByTestId("complaint-work-id").inputValue()).toBe(String(appealed));
    await expect.poll(() => menuPaths(s)).toEqual(["/complaint-view/complaint", "/complaint-view/view-complaint", "/"]);

    await s.locator('[data-menu-path="/complaint-view/view-complaint"] a').click();
    const card = s.getByTestId("filer-complaint").filter({ hasText: APPEALED });
    await card.getByTestId("request-arbitration").click();
    await s.getByTestId("filer-step-reason").fill("部署测试报告未被评委采纳，评分明显偏低，对维持原成绩的决定不服，申请仲裁。");
    await s.getByTestId("filer-step-ok").click();
    await expect.poll(() => card.getByTestId("complaint-state").textContent()).toBe("待仲裁");

    // Leaving the area ends the mode: the exit entry, another route, a reload.
    await s.locator('[data-menu-path="/"] a').click();
    await expect.poll(() => menuPaths(s)).toContain("/author/work-management");
    await s.goto(e.base + "/complaint-view/view-complaint");
    await expect.poll(() => menuPaths(s)).not.toContain("/author/work-management");
    await s.goto(e.base + "/author/info");
    await expect.poll(() => menuPaths(s)).toContain("/author/work-management");
    await s.reload();
    await expect.poll(() => menuPaths(s)).toContain("/author/work-management");
    await s.context().close();
    appealId = c.id;
  });

  it("the arbitrator maintains the decision and root confirms it", async () => {
    const arb = await login(e, "arbitrator");
    await arb.goto(e.base + "/Arbitrate");
    await arb.getByTestId("complaint-list").getByText(APPEALED).click();
    await arb.getByTestId("arbitration-form").waitFor();
    await arb.getByTestId("arbitration-outcome").getByText("维持原决定").click();
    await arb.getByTestId("arbitration-text").fill("评分记录显示评委已审阅部署测试报告，评分合理，维持原决定。");
    await arb.getByTestId("arbitration-submit").click();
    await expect.poll(() => arb.getByTestId("handler-arbitration").textContent()).toContain("仲裁结论：维持原决定");
    await arb.context().close();

    // Root confirms on /admin/ArbitrateManagement.
    const root = await login(e, "root");
    await root.goto(`${e.base}/admin/ArbitrateManagement?id=${appealId}`);
    await root.getByTestId("step-confirm").click();
    await popconfirmOk(root);
    await expect
      .poll(() => root.getByTestId("complaint-drawer").getByTestId("complaint-state").first().textContent())
      .toBe("已结案");
    await expect.poll(() => root.getByTestId("handler-arbitration").textContent()).toContain("确认生效");
    await root.context().close();
  });
});
