"""REST routes of the scout context (and its jobs): member JWT, the {code, message, data, error}
envelope, every call scoped by the service to the signed-in owner."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from feeds.scout.v1 import scout_pb2 as pb
from feeds.scout.v1 import scout_pb2_grpc
from gateway import envelopes, scout_views as views
from gateway.bodies import StrictJsonRoute
from gateway.auth import member
from gateway.clients import call_metadata
from gateway.contract import responses as answers
from gateway.contract.fields import UuidPath
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
PageNumber = Annotated[int, Query(description="Page number; below 1 means 1.")]
PageSize = Annotated[int, Query(alias="pageSize", description="Items per page; below 1 means the default, at most 50.")]


class BriefBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    intent: str = Field(max_length=2000, description="The member's original intent.")
    terms: list[str] = Field(max_length=50, description="Approved search terms.")
    theme_key: str = Field(default="", max_length=1000)
    theme_label: str = Field(default="", max_length=2000)
    mode: str = Field(default="", max_length=100, description="topic (default), activity or brand.")
    brand_id: str | None = Field(default=None, max_length=1000)
    # A JSON integer only (no true, "5" or 5.0); out of 1..40 is the service's 400002.
    target_count: StrictInt | None = Field(default=None, ge=-INT32_MAX, le=INT32_MAX,
                                           description="Eligible results wanted, 1..40; omitted or null means 20.")
    # Out of 1..365 is the service's invalid brief.
    recent_days: StrictInt | None = Field(default=None, ge=-INT32_MAX, le=INT32_MAX,
                                          description="Only posts of the last 1..365 days, newest first; "
                                                      "omitted or null means any age.")

    def message(self, theme_key: str | None = None) -> pb.Brief:
        return pb.Brief(intent=self.intent, terms=self.terms, theme_key=theme_key or self.theme_key,
                        theme_label=self.theme_label, mode=self.mode, brand_id=self.brand_id or "",
                        target_count=self.target_count, recent_days=self.recent_days)


class ScanBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    brief: BriefBody


class SuggestionsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    intent: str = Field(max_length=2000, description="The topic as the member typed it.")


class DraftBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    draft_text: str | None = Field(default=None, max_length=5000,
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
             "(a retry with its Idempotency-Key: the first answer)", responses=answers.scout(ScoutScan, 409, 422))
async def scan(request: Request, actor: Member, body: ScanBody) -> Response:
    async def create() -> Response:
        stub, options = _scout(request, actor)
        response = await stub.Scan(pb.ScanRequest(brief=body.brief.message()), **options)
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
                    brand_id: Annotated[str, Query(max_length=1000)] = "",
                    mode: Annotated[str, Query(max_length=100)] = "") -> JSONResponse:
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
                     theme_key: Annotated[str, Query(max_length=1000)] = "") -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.ListPosts(pb.ListPostsRequest(page=_page(page, page_size), theme_key=theme_key), **options)
    return envelopes.scout_data(views.post_list(response))


@router.delete("/api/v1/scout/themes/{theme_key}", summary="Legacy delete of a theme's finished runs and results",
               responses=answers.scout(ScoutThemeDeleted))
async def delete_theme(request: Request, actor: Member, theme_key: str) -> JSONResponse:
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
async def put_homework(request: Request, actor: Member, theme_key: str, body: BriefBody) -> JSONResponse:
    stub, options = _scout(request, actor)
    response = await stub.PutHomework(pb.PutHomeworkRequest(brief=body.message(theme_key)), **options)
    return envelopes.scout_data(views.homework(response.homework))


@router.delete("/api/v1/scout/homework/{theme_key}", summary="Delete the homework of one theme",
               responses=answers.scout(ScoutDone, 404))
async def delete_homework(request: Request, actor: Member, theme_key: str) -> JSONResponse:
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

