/** The 403 result for a logged-in user whose role the route's rule refuses. */
import { Button, Result } from "antd";
import { useNavigate } from "react-router";

export function Forbidden() {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="403"
      subTitle="抱歉，您无权访问此页面。"
      extra={
        <Button type="primary" onClick={() => navigate("/")}>
          返回首页
        </Button>
      }
    />
  );
}
