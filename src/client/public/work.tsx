/**
 * One work's public page (/mainpage/works/:id).
 */
import type { PublicWork } from "../../shared/mainpage/schema";
import { useData, A, Loading, Failure, useTitle } from "./ui";
import { isVideoFile } from "./best";

export function WorkPage({ id }: { id: number }) {
  const { data, error } = useData<PublicWork>(`works/${id}`);
  useTitle(data?.name);
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  const best = data.bestWork;
  return (
    <article className="mp-card mp-work" data-testid="work">
      <nav className="mp-crumbs">
        <A to="/mainpage/home">首页</A> › <A to="/mainpage/results">获奖名单</A>
      </nav>
      <h1>{data.name}</h1>
      <p className="mp-tags">
        {data.awards.map((a) => (
          <span key={a.contestId} className="mp-badge">
            {a.awardName}
          </span>
        ))}
      </p>
      {best?.coverUrl && <img className="mp-work-cover" src={best.coverUrl} alt={data.name} />}
      <dl className="mp-dl">
        <dt>作品编号</dt>
        <dd>{data.workId}</dd>
        <dt>类别</dt>
        <dd>{data.categoryName}</dd>
        <dt>学校</dt>
        <dd>{data.schoolName}</dd>
        <dt>作者</dt>
        <dd>{data.authorNames}</dd>
        {data.teacherNames && (
          <>
            <dt>指导教师</dt>
            <dd>{data.teacherNames}</dd>
          </>
        )}
        {data.awards.map((a) => (
          <span key={a.contestId} style={{ display: "contents" }}>
            <dt>获奖</dt>
            <dd>
              {a.contestName} {a.awardName}
            </dd>
          </span>
        ))}
      </dl>
      {best?.text && <blockquote className="mp-quote">{best.text}</blockquote>}
      {best?.videoUrl &&
        (isVideoFile(best.videoUrl) ? (
          <video src={best.videoUrl} controls preload="none" className="mp-video" />
        ) : (
          <p>
            <a href={best.videoUrl} target="_blank" rel="noopener noreferrer">
              ▶ 观看作品视频
            </a>
          </p>
        ))}
      {data.summary && (
        <>
          <h2>作品简介</h2>
          <p className="mp-pre">{data.summary}</p>
        </>
      )}
    </article>
  );
}
