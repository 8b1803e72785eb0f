/** The fields of /ContestAdmin/AddWork: contest, 大类/小类/组别, name, team by username, texts, links. */
import { Col, Form, Input, Radio, Row, Select, type FormInstance } from "antd";
import type { ContestView } from "../../../shared/contest/schema";
import { FIELDS, GROUP_NAMES, type WorkGroupKey } from "../../../shared/work/fields";
import type { AiToolUse } from "../../../shared/work/schema";
import { useWorkTypeTree } from "../../work-type/use-tree";

export interface AddWorkValues {
  contestId: number;
  categoryId: number;
  subcategoryId?: number | null;
  group?: WorkGroupKey;
  name: string;
  authors: string[];
  teachers?: string[];
  summary?: string;
  designIdea?: string;
  keyPoints?: string;
  openSource?: string;
  installGuide?: string;
  teacherReview?: string;
  otherNotes?: string;
  deployLink1?: string;
  deployLink2?: string;
  aiDeclaration?: { used?: boolean | null; tools?: Partial<AiToolUse>[] };
}

const TEXTS = ["summary", "designIdea", "keyPoints", "openSource", "installGuide", "teacherReview", "otherNotes"] as const;
const usernames = (v: string[] | undefined) => (v ?? []).map((s) => s.trim()).filter(Boolean);

export function AddWorkFields({
  form,
  contests,
  loadingContests,
}: {
  form: FormInstance<AddWorkValues>;
  contests: ContestView[];
  loadingContests: boolean;
}) {
  const { tree } = useWorkTypeTree();
  const contestId = Form.useWatch("contestId", form);
  const categoryId = Form.useWatch("categoryId", form);
  const contest = contests.find((c) => c.id === contestId);
  const node = tree.find((c) => c.id === categoryId);
  const categoryOptions = (contest?.categories ?? []).map((id, i) => ({
    value: id,
    label: contest!.categoryNames[i] ?? `#${id}`,
  }));
  const subOptions = (node?.children ?? []).filter((s) => !s.archived).map((s) => ({ value: s.id, label: s.name }));
  const minAuthors = node?.minAuthors ?? 1;
  const maxAuthors = node?.maxAuthors ?? 5;
  const maxTeachers = node?.maxTeachers ?? 2;
  const required = (label: string) => ({ required: true, whitespace: true, message: `请填写${label}` });

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="contestId"
            label="赛事"
            rules={[{ required: true, message: "请选择赛事" }]}
            extra="只能录入您管理的省级赛"
          >
            <Select
              loading={loadingContests}
              options={contests.map((c) => ({ value: c.id, label: c.name }))}
              showSearch
              optionFilterProp="label"
              placeholder="选择省级赛"
              onChange={() => form.setFieldsValue({ categoryId: undefined, subcategoryId: null, group: "normal" })}
              data-testid="add-contest"
              notFoundContent="没有可录入的省级赛"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={FIELDS.name.label} rules={[required("作品名称"), { max: 100, message: "最多 100 个字" }]}>
            <Input data-testid="add-name" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={node?.hasProfessionalGroup ? 8 : 12}>
          <Form.Item name="categoryId" label="作品大类" rules={[{ required: true, message: "请选择作品大类" }]}>
            <Select
              options={categoryOptions}
              placeholder={contest ? "选择大类" : "请先选择赛事"}
              onChange={() => form.setFieldsValue({ subcategoryId: null, group: "normal" })}
              data-testid="add-category"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={node?.hasProfessionalGroup ? 8 : 12}>
          <Form.Item
            name="subcategoryId"
            label="作品小类"
            rules={[{ required: subOptions.length > 0, message: "请选择作品小类" }]}
          >
            <Select
              options={subOptions}
              allowClear
              placeholder={node && !subOptions.length ? "本大类不分小类" : "选择小类"}
              data-testid="add-subcategory"
            />
          </Form.Item>
        </Col>
        {node?.hasProfessionalGroup && (
          <Col xs={24} md={8}>
            <Form.Item name="group" label="组别" extra="有作者的专业属于本大类专业组专业的，须报专业组">
              <Radio.Group
                options={(Object.keys(GROUP_NAMES) as WorkGroupKey[]).map((g) => ({ value: g, label: GROUP_NAMES[g] }))}
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <TeamFields minAuthors={minAuthors} maxAuthors={maxAuthors} maxTeachers={maxTeachers} />
      {TEXTS.map((k) => (
        <Form.Item
          key={k}
          name={k}
          label={FIELDS[k].label}
          rules={[...(FIELDS[k].requiredAtSubmit ? [required(FIELDS[k].label)] : []), { max: 5000, message: "最多 5000 个字" }]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 12 }} showCount maxLength={5000} data-testid={`add-${k}`} />
        </Form.Item>
      ))}
      <Row gutter={16}>
        {(["deployLink1", "deployLink2"] as const).map((k) => (
          <Col xs={24} md={12} key={k}>
            <Form.Item
              name={k}
              label={FIELDS[k].label}
              rules={[{ pattern: /^https?:\/\/\S+$/, message: "请填写以 http:// 或 https:// 开头的网址" }, { max: 500 }]}
            >
              <Input placeholder="https://" />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </>
  );
}

/** The team by username: authors in the order of the form (first: first author) and teachers, within the 大类's limits. */
function TeamFields({ minAuthors, maxAuthors, maxTeachers }: { minAuthors: number; maxAuthors: number; maxTeachers: number }) {
  return (
    <Row gutter={16}>
      <Col xs={24} md={14}>
        <Form.Item
          name="authors"
          label="作者（用户名）"
          extra={`按报名表顺序输入作者的用户名，回车确认；第一位为第一作者，作品属于其所在学校。本大类 ${minAuthors}–${maxAuthors} 人，均须为同校学生。`}
          rules={[
            { required: true, message: "请输入作者的用户名" },
            {
              validator: (_, v: string[]) =>
                usernames(v).length < minAuthors
                  ? Promise.reject(new Error(`至少 ${minAuthors} 名作者`))
                  : usernames(v).length > maxAuthors
                    ? Promise.reject(new Error(`最多 ${maxAuthors} 名作者`))
                    : Promise.resolve(),
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            tokenSeparators={[",", "，", " ", "、"]}
            placeholder="例如 student student2"
            data-testid="add-authors"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={10}>
        <Form.Item
          name="teachers"
          label="指导教师（用户名）"
          extra={`最多 ${maxTeachers} 名，须为同校教师`}
          rules={[
            {
              validator: (_, v: string[]) =>
                usernames(v).length > maxTeachers
                  ? Promise.reject(new Error(`最多 ${maxTeachers} 名指导教师`))
                  : Promise.resolve(),
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            tokenSeparators={[",", "，", " ", "、"]}
            placeholder="例如 teacher"
            data-testid="add-teachers"
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
