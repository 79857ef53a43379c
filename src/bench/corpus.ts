/**
 * A synthetic, reproducible memory corpus for benchmarks: task records in English and Chinese
 * with a Zipf-like vocabulary, so keyword postings have realistic common and rare terms.
 */
const TASK_TYPES = [
  "deploy",
  "code_review",
  "debug",
  "data_query",
  "support",
  "planning",
  "refactor",
  "oncall",
];
const OUTCOMES = ["success", "failure", "partial"] as const;

const EN_WORDS = `service database migration timeout port cache redis queue worker deploy rollback
  billing invoice payment refund customer report dashboard metric alert latency memory leak
  kubernetes pod node cluster ingress certificate token auth login session cookie api endpoint
  schema index query slow join transaction lock deadlock retry backoff rate limit quota budget
  release branch merge conflict test flaky build pipeline artifact docker image registry
  config secret vault backup restore snapshot replica failover region network dns proxy`
  .split(/\s+/)
  .filter(Boolean);

const ZH_WORDS =
  `服务器 数据库 迁移 超时 端口 缓存 队列 部署 回滚 账单 支付 退款 客户 报表 监控 告警
  延迟 内存 泄漏 集群 证书 登录 会话 接口 索引 查询 事务 死锁 重试 限流 配额 发布 分支 合并
  冲突 测试 构建 流水线 镜像 配置 密钥 备份 恢复 快照 副本 网络 代理 用户 偏好 中文 回复`
    .split(/\s+/)
    .filter(Boolean);

const EN_TEMPLATES = [
  (a: string, b: string, c: string) => `The ${a} ${b} failed after the ${c} change, rolled back`,
  (a: string, b: string, c: string) => `Fixed ${a} ${b} by tuning ${c} settings`,
  (a: string, b: string, c: string) =>
    `User asked to check ${a} and ${b}; found ${c} was misconfigured`,
  (a: string, b: string, c: string) => `Investigated ${a} ${b} issue, ${c} needs follow-up`,
];
const ZH_TEMPLATES = [
  (a: string, b: string, c: string) => `${a}${b}失败，原因是${c}配置错误，已回滚`,
  (a: string, b: string, c: string) => `用户要求检查${a}和${b}，发现${c}有问题`,
  (a: string, b: string, c: string) => `优化了${a}${b}，调整${c}参数后恢复正常`,
];

/** Mulberry32: tiny, fast, seedable; the same corpus on every run and machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf-like pick: low indexes are much more frequent than high ones. */
function zipf<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(items.length * next() ** 2.5)]!;
}

export interface BenchMemory {
  task_type: string;
  summary: string;
  outcome: (typeof OUTCOMES)[number];
  occurred_at: string;
  tags: string[];
}

export function generateMemory(next: () => number, index: number): BenchMemory {
  const chinese = next() < 0.3;
  const words = chinese ? ZH_WORDS : EN_WORDS;
  const templates = chinese ? ZH_TEMPLATES : EN_TEMPLATES;
  const [a, b, c] = [zipf(words, next), zipf(words, next), zipf(words, next)];
  const template = templates[Math.floor(next() * templates.length)]!;
  const day = Math.floor(next() * 365);
  return {
    task_type: zipf(TASK_TYPES, next),
    summary: `${template(a, b, c)} (#${index})`,
    outcome: OUTCOMES[Math.floor(next() * OUTCOMES.length)]!,
    occurred_at: new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString(),
    tags: [zipf(words, next)],
  };
}

export function generateQuery(next: () => number): string {
  const chinese = next() < 0.3;
  const words = chinese ? ZH_WORDS : EN_WORDS;
  const picks = [zipf(words, next), zipf(words, next), zipf(words, next)];
  return chinese ? picks.join("") : `${picks.join(" ")} problem`;
}
