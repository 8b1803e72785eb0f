/**
 * The normalisation model of the last computation: per result group how the fit went
 * (iterations, residual, panels of judges, RMSE) and every judge's effect — negative for a
 * harsh judge (their works were raised by that much), positive for a lenient one.
 */
import { Alert, Collapse, Descriptions, Space, Table, Tag, Typography } from "antd";
import type { FitView, JudgeEffectView } from "../../../shared/judging/result-schema";
import { fmt, useFit } from "./api";

export function FitPanel({ contestId }: { contestId: number }) {
  const fit = useFit(contestId, true);
  return (
    <Collapse
      data-testid="result-fit"
      items={[
        {
          key: "fit",
          label: "标准化模型与评委效应",
          children: fit.isError ? (
            <Alert type="error" showIcon message={fit.error.message} />
          ) : fit.data ? (
            <FitBody fit={fit.data} />
          ) : (
            <Typography.Text type="secondary">加载中…</Typography.Text>
          ),
        },
      ]}
    />
  );
}

function FitBody({ fit }: { fit: FitView }) {
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Typography.Paragraph style={{ margin: 0 }}>
        模型：<Typography.Text code>{fit.model}</Typography.Text>（第 {fit.version} 版）。评分 = 作品成绩 + 评委效应 +
        误差，按最小二乘（共轭梯度）拟合，同一评审组内评委效应之和为 0；标准化成绩即去掉评委效应后的作品成绩。分歧阈值：分差超过{" "}
        {fit.disagreementThreshold} 分。
      </Typography.Paragraph>
      {fit.groups.map((g) => (
        <div key={g.key}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {g.name} {g.basis === "defence" && <Tag color="purple">按答辩成绩排名</Tag>}
          </Typography.Title>
          {g.fit.scores === 0 ? (
            <Typography.Text type="secondary">本组还没有提交的网评评分。</Typography.Text>
          ) : (
            <GroupFit g={g} />
          )}
        </div>
      ))}
    </Space>
  );
}

function GroupFit({ g }: { g: FitView["groups"][number] }) {
  return (
    <>
      <Descriptions size="small" column={6} bordered style={{ marginBottom: 8 }}>
        <Descriptions.Item label="评分">{g.fit.scores}</Descriptions.Item>
        <Descriptions.Item label="作品">{g.fit.works}</Descriptions.Item>
        <Descriptions.Item label="评委">{g.fit.judges}</Descriptions.Item>
        <Descriptions.Item label="迭代">
          {g.fit.iterations}
          {g.fit.converged ? "" : "（未收敛）"}
        </Descriptions.Item>
        <Descriptions.Item label="残差均方根">{fmt(g.fit.rmse, 3)}</Descriptions.Item>
        <Descriptions.Item label="评委面板">{g.fit.components}</Descriptions.Item>
      </Descriptions>
      {g.fit.components > 1 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          message={`本组评委分成 ${g.fit.components} 个互不相连的面板（没有共同评过的作品），面板之间的宽严无法比较，各自按平均为 0 处理。`}
        />
      )}
      <Table<JudgeEffectView>
        rowKey="judgeId"
        size="small"
        dataSource={g.judges}
        pagination={g.judges.length > 20 ? { pageSize: 20 } : false}
        data-testid={`fit-${g.key}`}
      >
        <Table.Column<JudgeEffectView> title="评委" dataIndex="name" />
        <Table.Column<JudgeEffectView> title="评分数" dataIndex="count" />
        <Table.Column<JudgeEffectView> title="平均分" dataIndex="mean" render={(v: number) => fmt(v)} />
        <Table.Column<JudgeEffectView> title="标准差" dataIndex="sd" render={(v: number) => fmt(v)} />
        <Table.Column<JudgeEffectView>
          title="评委效应"
          dataIndex="effect"
          render={(v: number, j) =>
            !j.identified ? (
              <Typography.Text type="secondary">无法估计（所评作品没有其他评委）</Typography.Text>
            ) : (
              <Space size={4}>
                <Typography.Text type={v < -0.5 ? "danger" : v > 0.5 ? "success" : undefined}>
                  {v > 0 ? "+" : ""}
                  {fmt(v)}
                </Typography.Text>
                {v < -0.5 && <Tag color="red">偏严</Tag>}
                {v > 0.5 && <Tag color="green">偏松</Tag>}
              </Space>
            )
          }
        />
      </Table>
    </>
  );
}
