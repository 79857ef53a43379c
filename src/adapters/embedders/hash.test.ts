import { describe, expect, it } from "vitest";
import { createHashEmbedder, hashEmbed } from "./hash.js";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

describe("hash embedder", () => {
  it("is deterministic, 384-dimensional and unit length", async () => {
    const embedder = createHashEmbedder();
    const [a, b] = await embedder.embed(["deploy the service", "deploy the service"]);
    expect(embedder.dimensions).toBe(384);
    expect(a).toEqual(b);
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
  });

  it("scores shared words above unrelated text, in English", () => {
    const query = hashEmbed("database migration failed");
    const related = hashEmbed("the database migration failed on startup");
    const unrelated = hashEmbed("user prefers short answers in the morning");
    expect(cosine(query, related)).toBeGreaterThan(0.5);
    expect(cosine(query, unrelated)).toBeLessThan(0.2);
  });

  it("scores shared words above unrelated text, in Chinese", () => {
    const query = hashEmbed("服务器部署失败");
    const related = hashEmbed("昨天服务器部署失败了，因为端口被占用");
    const unrelated = hashEmbed("用户喜欢简洁的回答");
    expect(cosine(query, related)).toBeGreaterThan(0.4);
    expect(cosine(query, unrelated)).toBeLessThan(0.2);
  });

  it("matches word pieces (deploy ~ deployment)", () => {
    expect(cosine(hashEmbed("deployment"), hashEmbed("deploy"))).toBeGreaterThan(0.2);
  });

  it("embeds empty text as the zero vector rather than failing", () => {
    expect(hashEmbed("").every((value) => value === 0)).toBe(true);
  });
});
