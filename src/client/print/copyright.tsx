/**
 * /print/Copyright/:workId (pure, A4): the 版权与原创声明 exactly as the server words it
 * for this work, with the work's data and the signature areas.
 */
import { useLoaderData } from "react-router";
import type { CopyrightPrint } from "../../shared/work/print";
import type { PageProps } from "../routing/model";
import { PrintShell, SignatureBlock } from "./PrintShell";

export default function CopyrightPage(_: PageProps) {
  const d = useLoaderData() as CopyrightPrint;
  const w = d.work;
  return (
    <PrintShell
      testId="print-copyright"
      workId={w.id}
      title="版权与原创声明"
      contestName={d.contest.name}
      printedAt={d.printedAt}
    >
      <table className="print-table">
        <colgroup>
          <col style={{ width: "16%" }} />
          <col style={{ width: "34%" }} />
          <col style={{ width: "16%" }} />
          <col style={{ width: "34%" }} />
        </colgroup>
        <tbody>
          <tr>
            <th>作品名称</th>
            <td colSpan={3} data-testid="print-work-name">
              {w.name}
            </td>
          </tr>
          <tr>
            <th>作品大类</th>
            <td>{w.categoryName}</td>
            <th>作品小类</th>
            <td>{w.subcategoryName ?? "—"}</td>
          </tr>
          <tr>
            <th>学校</th>
            <td>{d.school.name}</td>
            <th>赛事</th>
            <td>{d.contest.name}</td>
          </tr>
          <tr>
            <th>作者</th>
            <td colSpan={3} data-testid="print-authors">
              {d.authors.map((a) => a.name).join("、")}
            </td>
          </tr>
          <tr>
            <th>指导教师</th>
            <td colSpan={3}>{d.teachers.map((t) => t.name).join("、") || "无"}</td>
          </tr>
        </tbody>
      </table>
      <div className="print-statement" data-testid="print-statement">
        {d.statement.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      <SignatureBlock
        authors={d.authors.length}
        teachers={d.teachers.length}
        authorLabel="全体作者签名："
        style={{ marginTop: "8mm" }}
      />
    </PrintShell>
  );
}
