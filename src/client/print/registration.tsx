/**
 * /print/Registration/:workId (pure, A4): the 作品报名表 from the server's print data —
 * work, category and group, school and contest, authors (school, major, member no, phone,
 * email), teachers, the summary, and the signature areas (authors, teachers, school seal).
 */
import { useLoaderData } from "react-router";
import type { RegistrationPrint } from "../../shared/work/print";
import type { PageProps } from "../routing/model";
import { PrintShell, SignatureBlock } from "./PrintShell";

const v = (s: string | null | undefined) => s || "";

export default function RegistrationPage(_: PageProps) {
  const d = useLoaderData() as RegistrationPrint;
  const w = d.work;
  const ai = w.aiDeclaration
    ? w.aiDeclaration.used
      ? `是（${w.aiDeclaration.tools.map((t) => t.tool).join("、")}），详见《AI工具使用声明》`
      : "否"
    : "未填写";
  return (
    <PrintShell testId="print-registration" workId={w.id} title="作品报名表" contestName={d.contest.name} printedAt={d.printedAt}>
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
            <td>{v(w.subcategoryName) || "—"}</td>
          </tr>
          <tr>
            <th>组别</th>
            <td>{w.groupName}</td>
            <th>作品状态</th>
            <td>{w.statusName}</td>
          </tr>
          <tr>
            <th>学校</th>
            <td>
              {d.school.name}（{d.school.code}）
            </td>
            <th>省份</th>
            <td>{d.school.province}</td>
          </tr>
          <tr>
            <th>赛事</th>
            <td colSpan={3}>
              {d.contest.name}（{d.contest.levelName}，{d.contest.year} 年）
            </td>
          </tr>
          <tr>
            <th>部署链接</th>
            <td colSpan={3}>{[w.deployLink1, w.deployLink2].filter(Boolean).join("  ") || "—"}</td>
          </tr>
          <tr>
            <th>使用AI工具</th>
            <td colSpan={3}>{ai}</td>
          </tr>
          <tr>
            <th>作品简介</th>
            <td colSpan={3} className="print-long">
              {v(w.summary)}
            </td>
          </tr>
        </tbody>
      </table>
      <table className="print-table print-small" data-testid="print-authors">
        <colgroup>
          <col style={{ width: "6%" }} />
          <col style={{ width: "11%" }} />
          <col style={{ width: "15%" }} />
          <col style={{ width: "20%" }} />
          <col style={{ width: "14%" }} />
          <col style={{ width: "13%" }} />
          <col style={{ width: "21%" }} />
        </colgroup>
        <thead>
          <tr>
            <th colSpan={7} className="print-section">
              作者信息（按排名）
            </th>
          </tr>
          <tr>
            <th>排名</th>
            <th>姓名</th>
            <th>学校</th>
            <th>专业</th>
            <th>学号</th>
            <th>电话</th>
            <th>邮箱</th>
          </tr>
        </thead>
        <tbody>
          {d.authors.map((a) => (
            <tr key={a.rank}>
              <td style={{ textAlign: "center" }}>{a.rank}</td>
              <td>{a.name}</td>
              <td>{a.school}</td>
              <td>{a.majorName ? `${a.majorName}（${a.majorCode}）` : ""}</td>
              <td>{v(a.memberNo)}</td>
              <td>{v(a.phone)}</td>
              <td>{v(a.email)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <TeachersTable teachers={d.teachers} />
      <SignatureBlock authors={d.authors.length} teachers={d.teachers.length} authorLabel="作者签名：" />
    </PrintShell>
  );
}

/** 指导教师: one row per teacher (rank, name, school, staff no, phone, email), or 无. */
function TeachersTable({ teachers }: { teachers: RegistrationPrint["teachers"] }) {
  return (
    <table className="print-table print-small" data-testid="print-teachers">
      <colgroup>
        <col style={{ width: "7%" }} />
        <col style={{ width: "12%" }} />
        <col style={{ width: "25%" }} />
        <col style={{ width: "17%" }} />
        <col style={{ width: "17%" }} />
        <col style={{ width: "22%" }} />
      </colgroup>
      <thead>
        <tr>
          <th colSpan={6} className="print-section">
            指导教师
          </th>
        </tr>
        <tr>
          <th>排名</th>
          <th>姓名</th>
          <th>学校</th>
          <th>工号</th>
          <th>电话</th>
          <th>邮箱</th>
        </tr>
      </thead>
      <tbody>
        {teachers.length ? (
          teachers.map((t) => (
            <tr key={t.rank}>
              <td style={{ textAlign: "center" }}>{t.rank}</td>
              <td>{t.name}</td>
              <td>{t.school}</td>
              <td>{v(t.memberNo)}</td>
              <td>{v(t.phone)}</td>
              <td>{v(t.email)}</td>
            </tr>
          ))
        ) : (
          <tr>
            <td colSpan={6} style={{ textAlign: "center" }}>
              无
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
