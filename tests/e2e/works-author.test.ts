/**
 * In a real browser: a student creates a work with a co-author (student2) and the demo
 * teacher; student2 confirms the invitation; the student fills the fields, uploads every
 * required file (small generated files of the right types), submits
 * and sees 已提交; the teacher finds the work among 指导作品; the profile page saves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { answerOf, expectFocusStaysInDrawer, login, selectOption, startE2E, type E2E } from "./harness";

const STUDENT_LOGIN = "/account/StudentLogin";
const WORK_NAME = "E2E 智慧大棚环境监测系统";

/** Picks an option of an antd Select by its text. */
async function choose(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await selectOption(page, text).click();
}

/** Minimal files whose first bytes are those of their type. */
const FILES: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {
  defense: {
    name: "答辩材料.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", "latin1"),
  },
  source: {
    name: "源码.zip",
    mimeType: "application/zip",
    buffer: Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), Buffer.alloc(18)]),
  },
  docs: {
    name: "设计文档.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n% design document\n%%EOF\n", "latin1"),
  },
  video: {
    name: "演示视频.mp4",
    mimeType: "video/mp4",
    buffer: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom", "latin1"), Buffer.alloc(12)]),
  },
};

describe("authors' works in a real browser", () => {
  let e: E2E;
  let workId = 0;

  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("the student creates a work with student2 and the teacher; it opens as a draft", async () => {
    const page = await login(e, "student", STUDENT_LOGIN);
    await page.goto(e.base + "/author/work-management");
    await page.getByTestId("my-works").locator("tbody tr.ant-table-row").first().waitFor();
    await page.getByTestId("work-create").click();
    const modal = page.getByTestId("work-create-modal");
    await modal.getByText(/报名截止/).waitFor(); // the only open contest is chosen
    await choose(page, "create-category", "物联网应用");
    await choose(page, "create-subcategory", "智慧农业");
    await modal.getByTestId("create-name").fill(WORK_NAME);
    // Found by name, number or username in the student's school (remote search).
    await modal.getByTestId("create-coauthors").click();
    await modal.locator("[data-testid=create-coauthors] input").fill("student2");
    await selectOption(page, "陈思远").click();
    await modal.locator("[data-testid=create-coauthors] input").press("Escape");
    await modal.getByTestId("create-teachers").click();
    await modal.locator("[data-testid=create-teachers] input").fill("teacher");
    await selectOption(page, "王老师").click();
    await modal.locator("[data-testid=create-teachers] input").press("Escape");
    workId = (
      await answerOf<{ id: number }>(page, "POST", "/Backend/Work/work", () =>
        modal.getByRole("button", { name: /创建作品/ }).click(),
      )
    ).id;

    const drawer = page.getByTestId("work-drawer");
    await drawer.getByText(WORK_NAME).first().waitFor();
    // Once the form has closed, the drawer keeps the focus (typing goes into its fields, not
    // back to 新建作品).
    await expectFocusStaysInDrawer(page);
    await expect.poll(() => drawer.getByTestId("work-status").first().textContent()).toBe("草稿");
    await drawer.getByRole("tab", { name: "团队成员" }).click();
    await expect.poll(() => drawer.getByTestId("team-authors").textContent()).toContain("待本人确认");
    await expect.poll(() => drawer.getByTestId("team-teachers").textContent()).toContain("王老师（teacher）");
    await page.context().close();
  });

  it("student2 sees the invitation at the top and confirms", async () => {
    const page = await login(e, "student2", STUDENT_LOGIN);
    await page.goto(e.base + "/author/work-management");
    const card = page.getByTestId("invitations");
    await card.getByText(WORK_NAME).waitFor();
    await card.getByTestId("invite-confirm").click();
    await page.getByTestId("my-works").getByText(WORK_NAME).waitFor();
    await expect.poll(() => page.getByTestId("invitations").count()).toBe(0);
    await page.context().close();
  });

  it("the student fills the fields, uploads the required files and submits", async () => {
    const page = await login(e, "student", STUDENT_LOGIN);
    await page.goto(`${e.base}/author/work-management?work=${workId}&tab=info`);
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByTestId("work-form").waitFor();
    await drawer
      .getByTestId("work-summary")
      .fill("面向农业大棚的温湿度、光照和土壤墒情监测系统，异常时自动告警并联动通风和灌溉设备。");
    await drawer
      .getByTestId("work-designIdea")
      .fill("传感器节点经 LoRa 汇聚到网关，云端做时序存储与规则告警，手机端查看和远程控制。");
    await drawer
      .getByTestId("work-keyPoints")
      .fill("重点是低功耗组网；难点是在弱网环境下保证数据不丢失，采用本地缓存与断点续传。");
    await drawer.getByText("未使用AI工具").click();
    await answerOf(page, "PATCH", `/Backend/Work/work/${workId}`, () => drawer.getByTestId("work-save").click());

    await drawer.getByRole("tab", { name: "作品附件" }).click();
    for (const [kind, file] of Object.entries(FILES)) {
      await drawer.getByTestId(`file-input-${kind}`).setInputFiles(file);
      await drawer.getByTestId(`file-${kind}`).getByText(file.name).waitFor();
    }
    await expect.poll(() => drawer.getByText(/尚未上传必交材料/).count()).toBe(0);

    await drawer.getByRole("tab", { name: "提交作品" }).click();
    await expect.poll(() => drawer.getByTestId("submit-checks").locator(".anticon-close-circle").count()).toBe(0);
    await drawer.getByTestId("work-submit").click();
    await page
      .locator(".ant-popover:not(.ant-popover-hidden)")
      .getByRole("button", { name: /提\s*交/ })
      .click();
    await expect.poll(() => drawer.getByTestId("work-status").first().textContent()).toBe("已提交");
    const row = page.getByTestId("my-works").locator("tr", { hasText: WORK_NAME });
    await expect.poll(() => row.getByTestId("work-status").textContent()).toBe("已提交");

    // The log records every step, the uploads included.
    await drawer.getByRole("tab", { name: "作品日志" }).click();
    const log = drawer.getByTestId("work-log");
    await log.waitFor();
    for (const step of ["创建作品", "确认参赛", "修改作品信息", "上传附件", "提交"])
      await expect.poll(() => log.textContent()).toContain(step);
    await page.context().close();
  });

  it("the teacher finds the work among 指导作品 and opens its summary", async () => {
    const page = await login(e, "teacher", "/account/TeacherLogin");
    await page.goto(e.base + "/teacher/WorkManagement");
    const row = page.getByTestId("advised-works").locator("tr", { hasText: WORK_NAME });
    await row.waitFor();
    await expect.poll(() => row.getByTestId("work-status").textContent()).toBe("已提交");
    await row.getByTestId("advised-review").click();
    const drawer = page.getByTestId("teacher-drawer");
    await drawer.getByText("面向农业大棚").waitFor();
    // A submitted work's self-evaluation can no longer be changed.
    expect(await drawer.getByTestId("teacher-review").isDisabled()).toBe(true);
    await page.context().close();
  });

  it("a student changes the own phone on /author/info", async () => {
    const page = await login(e, "student2", STUDENT_LOGIN);
    await page.goto(e.base + "/author/info");
    await page.getByTestId("profile-info").getByText("浙江工业大学").waitFor();
    await page.getByTestId("profile-phone").fill("13800138000");
    await answerOf(page, "PATCH", "/Backend/Common/profile", () => page.getByTestId("profile-save").click());
    await page.reload();
    expect(await page.getByTestId("profile-phone").inputValue()).toBe("13800138000");
    await page.context().close();
  });
});
