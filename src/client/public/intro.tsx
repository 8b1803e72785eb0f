/**
 * The public 赛事介绍 section.
 */
import type { Intro } from "../../shared/mainpage/schema";
import { useData, Loading, Failure, useTitle } from "./ui";
import { Timeline } from "./home";

export function IntroPage() {
  const { data, error } = useData<Intro>("intro");
  useTitle("赛事介绍");
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  return (
    <>
      <section className="mp-card">
        <h1 className="mp-page-title">赛事介绍</h1>
        {data.edition && (
          <>
            <h2>{data.edition.name}</h2>
            {data.edition.description && <p>{data.edition.description}</p>}
          </>
        )}
        <p>
          大赛实行校级赛、省级赛、国赛三级赛制：校级赛推荐作品参加省级赛，省级赛按名额推荐优秀作品晋级国赛。作品须为参赛学生本人的原创作品，经形式审查、网络评审、现场答辩后公布结果，结果公示期内可提出申诉。
        </p>
        {data.edition && data.edition.stages.length > 0 && <Timeline edition={data.edition} />}
      </section>
      <section className="mp-card">
        <h2>作品类别与评分标准</h2>
        <div className="mp-categories">
          {data.categories.map((c) => (
            <details key={c.id} className="mp-category">
              <summary>
                <strong>{c.name}</strong>
                <span className="mp-muted">
                  作者 {c.minAuthors}–{c.maxAuthors} 人，指导教师不超过 {c.maxTeachers} 人
                </span>
              </summary>
              {c.description && <p>{c.description}</p>}
              {c.subcategories.length > 0 && (
                <p className="mp-tags">
                  {c.subcategories.map((s) => (
                    <span key={s.id} className="mp-tag">
                      {s.name}
                    </span>
                  ))}
                </p>
              )}
              {c.rubric.length > 0 && (
                <table className="mp-table">
                  <thead>
                    <tr>
                      <th>评分项</th>
                      <th>分值</th>
                      <th>说明</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.rubric.map((r) => (
                      <tr key={r.name}>
                        <td>{r.name}</td>
                        <td>{r.maxPoints}</td>
                        <td>{r.description ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </details>
          ))}
        </div>
      </section>
    </>
  );
}
