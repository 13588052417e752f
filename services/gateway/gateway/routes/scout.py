"""REST routes of the scout context (and its jobs): member JWT, the {code, message, data, error}
envelope, every call scoped by the service to the signed-in owner."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict

from feeds.scout.v1 import scout_pb2 as pb
from feeds.scout.v1 import scout_pb2_grpc
from gateway import envelopes, scout_views as views
from gateway.bodies import StrictJsonRoute
from gateway.auth import member
from gateway.clients import call_metadata
from gateway.idempotency import IDEMPOTENCY_KEY
from gateway.contract import responses as answers
from gateway.contract.fields import UuidPath, no_nul, pattern, printable_or_blank, printable_text
from gateway.scout_views import (
    ScoutDone,
    ScoutHomework,
    ScoutHomeworkList,
    ScoutJob,
    ScoutPostAction,
    ScoutPostDeleted,
    ScoutPostList,
    ScoutRun,
    ScoutRunList,
    ScoutRunPosts,
    ScoutScan,
    ScoutSuggestions,
    ScoutThemeDeleted,
)

router = APIRouter(tags=["scout"], route_class=StrictJsonRoute)

# gRPC methods safe to retry on UNAVAILABLE: {"feeds.scout.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {
    "feeds.scout.v1.ScoutService": ["ListRuns", "GetRun", "ListRunPosts", "ListPosts", "ListHomework",
                                     "SuggestTerms"],
    "feeds.scout.v1.JobService": ["GetJob"],
}

INT32_MAX = 2**31 - 1
MODES = ("topic", "activity", "brand")
MAX_THEME_KEY = 200
# A theme key in the path: printable, and no "/" (which would end the segment).
ThemeKey = Annotated[str, Path(json_schema_extra=lambda schema: schema.update(
    pattern=printable_text().replace("]", "/]"), maxLength=MAX_THEME_KEY))]
ThemeKeyFilter = Annotated[str, Query(json_schema_extra=lambda schema: schema.update(
    pattern=f"^\\s*$|{printable_text()}", maxLength=MAX_THEME_KEY), description="Blank: every theme.")]
PageNumber = Annotated[int, Query(description="Page number; below 1 means 1.")]
PageSize = Annotated[int, Query(alias="pageSize", description="Items per page; below 1 means the default, at most 50.")]


# The brief's rules are the service's (scout.brief, docs/scout.md), with its own codes (400001, 400002):
# the gateway only bounds sizes, more loosely, and the document states each rule. Text is trimmed;
# what remains must be visible and hold no control character.
BRAND_MODE = "^\\s*brand\\s*$"


def _whole_number(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


# A JSON integer as JSON Schema counts them: 5 or 5.0, never true, "5" or 5.5.
JsonInteger = Annotated[int, BeforeValidator(_whole_number), Strict()]


class BriefBody(BaseModel):
    """A brief: the intent and approved terms must name a topic beyond colloquial words (推薦, 心得);
    brand mode needs a brand_id."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda schema: schema.update({
        "if": {"properties": {"mode": {"pattern": BRAND_MODE}}, "required": ["mode"]},
        "then": {"properties": {"brand_id": {"type": "string", "pattern": printable_text()}}, "required": ["brand_id"]}}))

    intent: str = Field(max_length=2000, description="The member's original intent.",
                        json_schema_extra=pattern(printable_text, maxLength=500))
    terms: list[str] = Field(max_length=50, description="Approved search terms.",
                             json_schema_extra=lambda schema: schema.update(
                                 minItems=1, maxItems=10,
                                 items={"type": "string", "pattern": printable_text(), "maxLength": 100}))
    theme_key: str = Field(default="", max_length=1000, description="Blank: derived from the intent.",
                           json_schema_extra=pattern(printable_or_blank, maxLength=200))
    theme_label: str = Field(default="", max_length=2000, description="Blank: the intent.",
                             json_schema_extra=pattern(printable_or_blank, maxLength=200))
    mode: str = Field(default="", max_length=100, description="topic (blank means topic), activity or brand.",
                      json_schema_extra={"pattern": "^\\s*(topic|activity|brand)?\\s*$"})
    brand_id: str | None = Field(default=None, max_length=1000,
                                 json_schema_extra=pattern(printable_or_blank, maxLength=100))
    # Out of 1..40 is the service's 400002.
    target_count: JsonInteger | None = Field(default=None, ge=-INT32_MAX, le=INT32_MAX,
                                           json_schema_extra={"minimum": 1, "maximum": 40},
                                           description="Eligible results wanted, 1..40; omitted or null means 20.")
    # Out of 1..365 is the service's invalid brief.
    recent_days: JsonInteger | None = Field(default=None, ge=-INT32_MAX, le=INT32_MAX,
                                          json_schema_extra={"minimum": 1, "maximum": 365},
                                          description="Only posts of the last 1..365 days, newest first; "
                                                      "omitted or null means any age.")

    def message(self, theme_key: str | None = None) -> pb.Brief:
        return pb.Brief(intent=self.intent, terms=self.terms, theme_key=theme_key or self.theme_key,
                        theme_label=self.theme_label, mode=self.mode, brand_id=self.brand_id or "",
                        target_count=self.target_count, recent_days=self.recent_days)


class HomeworkBody(BriefBody):
    """A brief saved as the theme's homework: the path names the theme."""

    theme_key: str = Field(default="", max_length=1000, description="Ignored: the path names the theme.")


class ScanBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    brief: BriefBody


class SuggestionsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    intent: str = Field(max_length=2000, description="The topic as the member typed it; it must name a topic "
                                                     "beyond colloquial words (推薦, 心得).",
                        json_schema_extra=pattern(printable_text, maxLength=500))


class DraftBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    draft_text: str | None = Field(default=None, max_length=5000, json_schema_extra=pattern(no_nul),
                                   description="The reply to save; omitted keeps the saved draft.")


def _page(page: int, size: int) -> pb.PageRequest:
    clamp = lambda value: max(min(value, INT32_MAX), -INT32_MAX)  # noqa: E731 - beyond int32 is "past the end"
    return pb.PageRequest(page=clamp(page), page_size=clamp(size))


Member = Annotated[uuid.UUID, Depends(member)]
DONE: ScoutDone = {"ok": True}


def _stub(request: Request, actor: uuid.UUID, stub_class):
    """A stub of the scout channel and the call options naming the signed-in member."""
    channel = request.app.state.channels["scout"]
    options = {"timeout": channel.deadline, "metadata": call_metadata(request, actor=actor)}
    return stub_class(channel.channel), options


def _scout(request: Request, actor: uuid.UUID):
    return _stub(request, actor, scout_pb2_grpc.ScoutServiceStub)


def _jobs(request: Request, actor: uuid.UUID):
    return _stub(request, actor, scout_pb2_grpc.JobServiceStub)


@router.post("/api/v1/scout/scan", summary="Create a new run for a brief and schedule its scan job "
             "(a retry with its Idempotency-Key: the first answer)", responses=answers.scout(ScoutScan, 409, 422),
             openapi_extra={"parameters": [IDEMPOTENCY_KEY]})
async def scan(request: Request, actor: Member, body: ScanBody) -> Response:
    async def create() -> Response:
        stub, options = _scout(request, actor)
        response = await stub.Scan(pb.ScanRequest(brief=body.brief.message(),
                                                  idempotency_key=request.headers.get("idempotency-key", "")),
                                   **options)
        # A run the service already held under this key (the gateway's record of the first answer
        # having lapsed) is answered as that first scan was.
        scanned: ScoutScan = {"job": views.job(response.job), "run": views.run(response.run)}
        return envelopes.scout_data(scanned)

    return await request.app.state.idempotency.run(request, f"member:{actor}", create)


@router.post("/api/v1/scout/suggestions", summary="Search terms proposed for a topic, for the member to review",
             responses=answers.scout(ScoutSuggestions))
async def suggest_terms(request: Request, actor: Member, body: SuggestionsBody) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.SuggestTerms(pb.SuggestTermsRequest(intent=body.intent), **options)
    suggested: ScoutSuggestions = {"terms": list(response.terms)}
    return envelopes.scout_data(suggested)


@router.get("/api/v1/scout/runs", summary="Runs of the member, newest first", responses=answers.scout(ScoutRunList))
async def list_runs(request: Request, actor: Member, page: PageNumber = 1, page_size: PageSize = 0,
                    brand_id: Annotated[str, Query(max_length=100, json_schema_extra=pattern(no_nul))] = "",
                    mode: Annotated[str, Query(json_schema_extra={"enum": ["", *MODES]})] = "") -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.ListRuns(pb.ListRunsRequest(page=_page(page, page_size), brand_id=brand_id, mode=mode),
                                   **options)
    return envelopes.scout_data(views.run_list(response))


@router.get("/api/v1/scout/runs/{run_id}", summary="One run with its counts and shortfall",
            responses=answers.scout(ScoutRun, 404))
async def get_run(request: Request, actor: Member, run_id: UuidPath) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.GetRun(pb.GetRunRequest(run_id=run_id), **options)
    return envelopes.scout_data(views.run(response.run))


@router.get("/api/v1/scout/runs/{run_id}/posts", summary="One page of a run's results, by score",
            responses=answers.scout(ScoutRunPosts, 404))
async def list_run_posts(request: Request, actor: Member, run_id: UuidPath, page: PageNumber = 1,
                         page_size: PageSize = 0) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.ListRunPosts(pb.ListRunPostsRequest(run_id=run_id, page=_page(page, page_size)), **options)
    return envelopes.scout_data(views.run_posts(response))


@router.delete("/api/v1/scout/runs/{run_id}", summary="Delete a finished run and its results (409 while active)",
               responses=answers.scout(ScoutDone, 404, 409))
async def delete_run(request: Request, actor: Member, run_id: UuidPath) -> JSONResponse:
    stub, options = _scout(request, actor)
    await stub.DeleteRun(pb.DeleteRunRequest(run_id=run_id), **options)
    return envelopes.scout_data(DONE)


@router.get("/api/v1/scout/posts", summary="Legacy list of all the member's results",
            responses=answers.scout(ScoutPostList))
async def list_posts(request: Request, actor: Member, page: PageNumber = 1, page_size: PageSize = 0,
                     theme_key: ThemeKeyFilter = "") -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.ListPosts(pb.ListPostsRequest(page=_page(page, page_size), theme_key=theme_key), **options)
    return envelopes.scout_data(views.post_list(response))


@router.delete("/api/v1/scout/themes/{theme_key}", summary="Legacy delete of a theme's finished runs and results",
               responses=answers.scout(ScoutThemeDeleted))
async def delete_theme(request: Request, actor: Member, theme_key: ThemeKey) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.DeleteTheme(pb.DeleteThemeRequest(theme_key=theme_key), **options)
    deleted: ScoutThemeDeleted = {"ok": True, "deleted_runs": response.deleted_runs,
                                  "deleted_posts": response.deleted_posts}
    return envelopes.scout_data(deleted)


@router.get("/api/v1/scout/homework", summary="The member's reusable topic homework",
            responses=answers.scout(ScoutHomeworkList))
async def list_homework(request: Request, actor: Member) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.ListHomework(pb.ListHomeworkRequest(), **options)
    homework: ScoutHomeworkList = {"list": [views.homework(h) for h in response.homework]}
    return envelopes.scout_data(homework)


@router.put("/api/v1/scout/homework/{theme_key}", summary="Save the homework of one theme", responses=answers.scout(ScoutHomework))
async def put_homework(request: Request, actor: Member, theme_key: ThemeKey, body: HomeworkBody) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.PutHomework(pb.PutHomeworkRequest(brief=body.message(theme_key)), **options)
    return envelopes.scout_data(views.homework(response.homework))


@router.delete("/api/v1/scout/homework/{theme_key}", summary="Delete the homework of one theme",
               responses=answers.scout(ScoutDone, 404))
async def delete_homework(request: Request, actor: Member, theme_key: ThemeKey) -> JSONResponse:
    stub, options = _scout(request, actor)
    await stub.DeleteHomework(pb.DeleteHomeworkRequest(theme_key=theme_key), **options)
    return envelopes.scout_data(DONE)


def _post_action(response: pb.PostActionResponse) -> JSONResponse:
    return envelopes.scout_data(views.post_action(response))


@router.post("/api/v1/scout/posts/{post_id}/draft", summary="Draft a reply to a result (new|drafted → drafted)",
             responses=answers.scout(ScoutPostAction, 404, 409))
async def draft_post(request: Request, actor: Member, post_id: UuidPath, body: DraftBody | None = None) -> JSONResponse:
    stub, options = _scout(request, actor)
    text = body.draft_text if body else None
    return _post_action(await stub.DraftPost(pb.DraftPostRequest(post_id=post_id, draft_text=text), **options))


@router.post("/api/v1/scout/posts/{post_id}/skip", summary="Skip a result (new|drafted → skipped)",
             responses=answers.scout(ScoutPostAction, 404, 409))
async def skip_post(request: Request, actor: Member, post_id: UuidPath) -> JSONResponse:
    stub, options = _scout(request, actor)
    return _post_action(await stub.SkipPost(pb.SkipPostRequest(post_id=post_id), **options))


@router.post("/api/v1/scout/posts/{post_id}/publish", summary="Publish a drafted reply (drafted → published)",
             responses=answers.scout(ScoutPostAction, 404, 409))
async def publish_post(request: Request, actor: Member, post_id: UuidPath) -> JSONResponse:
    stub, options = _scout(request, actor)
    return _post_action(await stub.PublishPost(pb.PublishPostRequest(post_id=post_id), **options))


@router.delete("/api/v1/scout/posts/{post_id}", summary="Delete one result; its run's counts follow",
               responses=answers.scout(ScoutPostDeleted, 404))
async def delete_post(request: Request, actor: Member, post_id: UuidPath) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.DeletePost(pb.DeletePostRequest(post_id=post_id), **options)
    return envelopes.scout_data(views.post_deleted(response))


@router.get("/api/v1/jobs/{job_id}", summary="A background job and its progress", responses=answers.scout(ScoutJob, 404))
async def get_job(request: Request, actor: Member, job_id: UuidPath) -> JSONResponse:
    stub, options = _jobs(request, actor)
    response = await stub.GetJob(pb.GetJobRequest(job_id=job_id), **options)
    return envelopes.scout_data(views.job(response.job))


@router.post("/api/v1/jobs/{job_id}/cancel", summary="Cancel a job: at once if queued, at the next stage if running",
             responses=answers.scout(ScoutJob, 404, 409))
async def cancel_job(request: Request, actor: Member, job_id: UuidPath) -> JSONResponse:
    stub, options = _jobs(request, actor)
    response = await stub.CancelJob(pb.CancelJobRequest(job_id=job_id), **options)
    return envelopes.scout_data(views.job(response.job))

