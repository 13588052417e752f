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
    return page(request, "sign-in.html")


class DevSignIn(BaseModel):
    member_id: uuid.UUID = Field(alias="memberId")


@router.post(SIGN_IN_PATH)
async def sign_in(request: Request, body: DevSignIn) -> JSONResponse:
    token = request.app.state.member_auth.issue_dev_token(body.member_id, DEV_TOKEN_TTL_SECONDS)
    return JSONResponse({"token": token, "memberId": str(body.member_id), "expiresIn": DEV_TOKEN_TTL_SECONDS},
                        headers={"Cache-Control": "no-store"})
