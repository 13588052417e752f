"""The dev sign-in form: a short-lived HS256 token for a chosen member. The gateway mounts these
routes under FEEDS_ENV=dev only; anywhere else /dev/sign-in does not exist."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from gateway.bodies import StrictJsonRoute
from gateway.routes.pages import SIGN_IN_PATH, page

router = APIRouter(include_in_schema=False, route_class=StrictJsonRoute)

DEV_TOKEN_TTL_SECONDS = 3600


@router.get(SIGN_IN_PATH, response_class=HTMLResponse)
async def sign_in_form(request: Request) -> HTMLResponse:
    # A new member's id is in the field from the start: a script filling it in later could land in
    # the middle of what the user is typing.
    return page(request, "sign-in.html", {"new-member-id": str(uuid.uuid4())})


class DevSignIn(BaseModel):
    member_id: uuid.UUID = Field(alias="memberId")


@router.post(SIGN_IN_PATH)
async def sign_in(request: Request, body: DevSignIn) -> JSONResponse:
    token = request.app.state.member_auth.issue_dev_token(body.member_id, DEV_TOKEN_TTL_SECONDS)
    return JSONResponse({"token": token, "memberId": str(body.member_id), "expiresIn": DEV_TOKEN_TTL_SECONDS},
                        headers={"Cache-Control": "no-store"})
