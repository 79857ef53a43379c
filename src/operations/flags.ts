/** CLI flags that several commands share, declared once so their wording cannot drift apart. */

/** The scope filters of recall and list. */
export const scopeFilterFlags = {
  user_id: { flag: "--user <id>", help: "only memories of this user" },
  agent_id: { flag: "--agent <id>", help: "only memories of this agent" },
  session_id: { flag: "--session <id>", help: "only memories of this session" },
};

/** The tag filter of recall and list: `--tag` repeated, any of them or all. */
export const tagFilterFlags = {
  tags: {
    flag: "--tag <tag>",
    help: "only memories with this tag (repeatable: any of them; all with --all-tags)",
    repeatable: true,
  },
  tags_match: {
    flag: "--all-tags",
    help: "with --tag: only memories with every tag given",
    value: "all",
  },
};
