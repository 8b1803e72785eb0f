/**
 * /dup-check/compare/:a/:b (root, contest admins, judges, format reviewers): work a, the
 * checked one, beside work b, its match — the shared passages highlighted in both texts
 * with their positions and the containment both ways. The server decides what may be shown
 * (b outside the caller's scope: only its shared passages; a out of scope: 404).
 */
import { useNavigate, useParams } from "react-router";
import { Button, Card, Result, Skeleton, Space } from "antd";
import { ArrowLeftOutlined } from "@ant-design/icons";
import type { PageProps } from "../routing/model";
import { usePair } from "./api";
import { PairView } from "./PairView";

const idOf = (s: string | undefined) => (/^\d{10}$/.test(s ?? "") ? Number(s) : 0);

export default function ComparePage({ route }: PageProps) {
  const params = useParams();
  const a = idOf(params.a);
  const b = idOf(params.b);
  const navigate = useNavigate();
  const pair = usePair(a, b);
  const back = (
    <Button
      type="text"
      icon={<ArrowLeftOutlined />}
      aria-label="返回"
      onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(`/dup-check?workId=${a}`))}
    />
  );
  if (!a || !b) return <Result status="404" title="地址不正确：应为 /dup-check/compare/作品编号/作品编号（10 位数字）" />;
  return (
    <Card
      title={
        <Space>
          {back}
          <span>
            {route.label}：{a} 与 {b}
          </span>
        </Space>
      }
      data-testid="dup-compare-page"
    >
      {pair.isLoading ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : pair.isError || !pair.data ? (
        <Result status="404" title={pair.error?.message ?? "作品不存在或不在您的查重范围内"} data-testid="dup-compare-error" />
      ) : (
        <PairView pair={pair.data} />
      )}
    </Card>
  );
}
