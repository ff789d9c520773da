"""Phones for the benchmarks, in a process of their own: ``python -m bench.phone_clients PORT N``
joins N phones to the public table on loopback, says "joined", reads every page until stdin
closes, then leaves."""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp


async def main(port: int, count: int) -> None:
    async with aiohttp.ClientSession() as http:
        sockets = []
        for _ in range(count):
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}")
            await ws.send_str(json.dumps({"type": "hello", "token": None}))
            sockets.append(ws)
        print("joined", flush=True)

        async def drain(ws: aiohttp.ClientWebSocketResponse) -> None:
            async for _ in ws:
                pass

        readers = [asyncio.ensure_future(drain(ws)) for ws in sockets]
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until stdin closes
        for ws in sockets:
            await ws.close()
        for r in readers:
            r.cancel()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
