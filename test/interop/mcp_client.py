"""Interop check: the official MCP Python SDK talks to hindsight over Streamable HTTP.

Usage: python3 test/interop/mcp_client.py <url>

Stores one memory, recalls it and prints ONE JSON line with what it saw, for
test/mcp-python.test.ts to assert on. Anything else goes to stderr.
"""

import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

SUMMARY = "Python interop: deploy to staging failed because port 8080 was already in use"


async def main(url: str) -> dict:
    async with streamable_http_client(url) as (read_stream, write_stream):
        async with ClientSession(read_stream, write_stream) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            stored = await session.call_tool(
                "memory_store",
                {"task_type": "deploy", "summary": SUMMARY, "outcome": "failure"},
            )
            recalled = await session.call_tool(
                "memory_recall", {"query_text": "staging deploy port 8080", "top_k": 3}
            )
            bad = await session.call_tool("memory_recall", {"query_text": "x", "top_k": 99})
            return {
                "server": init.server_info.name,
                "protocol_version": init.protocol_version,
                "tools": sorted(tool.name for tool in tools.tools),
                "stored_id": (stored.structured_content or {}).get("id"),
                "stored_is_error": bool(stored.is_error),
                "recalled_ids": [
                    result["id"] for result in (recalled.structured_content or {}).get("results", [])
                ],
                "recall_text": "".join(
                    block.text for block in recalled.content if getattr(block, "type", "") == "text"
                ),
                "bad_is_error": bool(bad.is_error),
                "bad_text": "".join(
                    block.text for block in bad.content if getattr(block, "type", "") == "text"
                ),
            }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: mcp_client.py <url>", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(asyncio.run(main(sys.argv[1]))))
