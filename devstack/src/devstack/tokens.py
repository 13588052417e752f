"""Member tokens for dev use: the HS256 JWT a gateway configured with the same `GATEWAY_JWT_SECRET`
accepts (docs/architecture.md, "Who is calling")."""

from __future__ import annotations

import time
import uuid

import jwt


def member_token(secret: str, member_id: uuid.UUID | str, ttl_seconds: int = 3600) -> str:
    now = int(time.time())
    return jwt.encode({"sub": str(member_id), "iat": now, "exp": now + ttl_seconds}, secret, algorithm="HS256")


def member_headers(secret: str, member_id: uuid.UUID | str | None, ttl_seconds: int = 3600) -> dict[str, str]:
    """`Authorization: Bearer …` for a member, nothing for a guest (None)."""
    if member_id is None:
        return {}
    return {"Authorization": f"Bearer {member_token(secret, member_id, ttl_seconds)}"}
