"""REST routes of the timeline context: the host API, signed per docs/architecture.md.

The signature is checked before anything else is read from the request, so an unsigned caller
learns nothing about the shape of a valid one. The key decides the tenant; `X-Activity-Viewer`
names the acting user (author, follower, blocker, viewer).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from google.protobuf.timestamp_pb2 import Timestamp
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from gateway import bodies, timeline_views as views
from gateway.api_error import ApiError
from gateway.auth import HostCall
from gateway.clients import call_metadata
from gateway.idempotency import IDEMPOTENCY_KEY
from gateway.contract import responses as answers
from gateway.contract.fields import LABEL_PATTERN, RFC3339, LabelPath, UuidPath, pattern, visible_text
from gateway.envelopes import timeline_data, timeline_page
from gateway.timeline_views import (
    TimelineBlock,
    TimelineDeleted,
    TimelineFollow,
    TimelineItem,
    TimelineFilterDeleted,
    TimelineLabelPolicy,
    TimelineLabelPreference,
    TimelineLabelRuleDeleted,
    TimelineMute,
    TimelinePong,
    TimelinePost,
    TimelineRebuild,
    TimelineUnmuted,
    TimelineWordFilter,
)

router = APIRouter(prefix="/api/v1/timeline", tags=["timeline"])

SERVICE = "feeds.timeline.v1.TimelineService"
ADMIN = "feeds.timeline.v1.TimelineAdmin"
POLICY = "feeds.timeline.v1.TimelinePolicy"
# gRPC methods safe to retry on UNAVAILABLE: {"feeds.timeline.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {SERVICE: ["GetPost", "GetHomeTimeline", "GetRebuild"], ADMIN: ["Ping"],
                                          POLICY: ["ListMutes", "ListWordFilters", "ListLabelPolicies",
                                                                   "ListLabelPreferences"]}

# The signature headers are the security schemes of the document (gateway.contract.document); the
# acting user is a parameter, required where the operation acts as someone.
def _viewer(required: bool) -> list[dict]:
    uuid_schema = {"type": "string", "format": "uuid"}
    return [{"name": "X-Activity-Viewer", "in": "header", "required": required,
             "schema": uuid_schema if required else {"anyOf": [uuid_schema, {"type": "string", "maxLength": 0}]},
             "description": "The acting user's id (author, follower, blocker, viewer), signed; "
                            + ("required." if required else "empty or absent when the call names none.")}]


VIEWER = {"parameters": _viewer(True)}
ANY_VIEWER = {"parameters": _viewer(False)}
IDEMPOTENT_VIEWER = {"parameters": _viewer(True) + [IDEMPOTENCY_KEY]}


Label = Annotated[str, Field(pattern=LABEL_PATTERN, max_length=32)]
Labels = Annotated[list[Label], Field(max_length=10, description="At most 10 labels, each 1 to 32 lower-case ASCII "
                                      "letters, digits, '-' or '_' starting with a letter or digit; a repeated "
                                      "label counts once.")]
LabelAction = Literal["hide", "warn", "show"]


class TimelinePostBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    body: str = Field(min_length=1, max_length=10_000, json_schema_extra=pattern(visible_text))
    visibility: Literal["public", "private"] = "public"
    labels: Labels = []


class LabelsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    labels: Labels


class LabelPolicyBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: LabelAction
    viewer_may_change: StrictBool = Field(default=True, description="Whether a viewer's preference for the label "
                                                              "decides for that viewer.")


class LabelPreferenceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: LabelAction


class TimelineModerationBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    moderation_state: Literal["visible", "hidden", "removed"]


class MuteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    until: str | None = Field(default=None, pattern=RFC3339, json_schema_extra={"format": "date-time"},
                              description="When the mute ends (in the future); absent or null: until unmuted.")


class WordFilterBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str = Field(min_length=1, max_length=100, json_schema_extra=pattern(visible_text),
                        description="Matched in folded post bodies: case, full/half width, accents and "
                                    "Simplified/Traditional characters do not matter; whole words in Latin text, "
                                    "as written in CJK text.")
    action: Literal["hide", "warn"] = "hide"
    expires_at: str | None = Field(default=None, pattern=RFC3339, json_schema_extra={"format": "date-time"},
                                   description="When the filter ends (in the future); absent or null: until deleted.")


def _with_body(model: type[BaseModel], viewer: dict, *, required: bool = True) -> dict:
    return {**viewer, "requestBody": {"required": required,
                                      "content": {"application/json": {"schema": answers.request(model)}}}}


def _timestamp(value: str, field: str) -> Timestamp:
    """An RFC 3339 time of a body (its pattern already checked) as a protobuf Timestamp."""
    try:
        stamp = Timestamp()
        stamp.FromDatetime(datetime.fromisoformat(value.upper()))
        return stamp
    except (ValueError, OverflowError):
        raise ApiError(400, "invalid_request", f"{field}: not a valid RFC 3339 time") from None


async def _signed(request: Request, *, viewer_required: bool) -> tuple[HostCall, uuid.UUID | None]:
    call = await request.app.state.host_signature.verify(request)
    if not call.viewer_id:
        if viewer_required:
            raise ApiError(400, "invalid_request", "X-Activity-Viewer must name the acting user")
        return call, None
    try:
        return call, uuid.UUID(call.viewer_id)
    except ValueError:
        raise ApiError(400, "invalid_request", "X-Activity-Viewer must be a UUID") from None


Body = TypeVar("Body", bound=BaseModel)


async def _body(request: Request, model: type[Body], *, optional: bool = False) -> Body:
    """The request's JSON body as `model`; with `optional`, no body at all is the model's defaults."""
    raw = await request.body()
    if optional and not raw:
        return model()
    try:
        return model.model_validate(bodies.loads(raw or b"null"))
    except json.JSONDecodeError as error:
        raise ApiError(400, "invalid_request", error.msg) from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ApiError(400, "invalid_request", f"{where}: {first['msg']}" if where else first["msg"]) from None


def _stubs(request: Request):
    channel = request.app.state.channels["timeline"]
    return (timeline_pb2_grpc.TimelineServiceStub(channel.channel), timeline_pb2_grpc.TimelineAdminStub(channel.channel),
            channel.deadline)


def _policy(request: Request) -> tuple[timeline_pb2_grpc.TimelinePolicyStub, float]:
    channel = request.app.state.channels["timeline"]
    return timeline_pb2_grpc.TimelinePolicyStub(channel.channel), channel.deadline


@router.post("/posts", summary="Publish a post as the viewer (a retry with its Idempotency-Key: the first answer)",
             status_code=201, openapi_extra=_with_body(TimelinePostBody, IDEMPOTENT_VIEWER),
             responses=answers.timeline(TimelinePost, 409, 422, success=(201,)))
async def publish_post(request: Request) -> Response:
    call, author = await _signed(request, viewer_required=True)

    async def publish() -> Response:
        body = await _body(request, TimelinePostBody)
        stub, _, deadline = _stubs(request)
        response = await stub.PublishPost(
            pb.PublishPostRequest(body=body.body, visibility=views.VISIBILITY_PB[body.visibility],
                                  idempotency_key=request.headers.get("idempotency-key", ""), labels=body.labels),
            timeout=deadline, metadata=call_metadata(request, actor=author, tenant=call.tenant_id),
        )
        # A post the service already held under this key (the gateway's record of the first answer
        # having lapsed) is answered as that first publish was.
        return timeline_data(views.post(response.post), status=201)

    return await request.app.state.idempotency.run(request, f"host:{call.tenant_id}:{author}", publish)


@router.get("/posts/{post_id}", summary="One post (as the viewer sees it, when one is named)", openapi_extra=ANY_VIEWER,
            responses=answers.timeline(TimelinePost, 404))
async def get_post(request: Request, post_id: UuidPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=False)
    stub, _, deadline = _stubs(request)
    response = await stub.GetPost(pb.GetPostRequest(post_id=post_id), timeout=deadline,
                                  metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data(views.post(response.post))


@router.delete("/posts/{post_id}", summary="Soft-delete the viewer's own post", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineDeleted, 404))
async def delete_post(request: Request, post_id: UuidPath) -> JSONResponse:
    call, author = await _signed(request, viewer_required=True)
    stub, _, deadline = _stubs(request)
    await stub.DeletePost(pb.DeletePostRequest(post_id=post_id), timeout=deadline,
                          metadata=call_metadata(request, actor=author, tenant=call.tenant_id))
    deleted: TimelineDeleted = {"post_id": post_id, "deleted": True}
    return timeline_data(deleted)


@router.put("/posts/{post_id}/moderation", summary="Set a post's moderation state",
            openapi_extra=_with_body(TimelineModerationBody, ANY_VIEWER), responses=answers.timeline(TimelinePost, 404))
async def set_moderation(request: Request, post_id: UuidPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    body = await _body(request, TimelineModerationBody)
    stub, _, deadline = _stubs(request)
    response = await stub.SetModeration(
        pb.SetModerationRequest(post_id=post_id, moderation_state=views.MODERATION_PB[body.moderation_state]),
        timeout=deadline, metadata=call_metadata(request, actor=actor, tenant=call.tenant_id),
    )
    return timeline_data(views.post(response.post))


@router.put("/posts/{post_id}/labels", summary="Replace a post's labels",
            description="Label policies and preferences act on them from the next home read on.",
            openapi_extra=_with_body(LabelsBody, ANY_VIEWER), responses=answers.timeline(TimelinePost, 404))
async def set_post_labels(request: Request, post_id: UuidPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    body = await _body(request, LabelsBody)
    stub, _, deadline = _stubs(request)
    response = await stub.SetPostLabels(pb.SetPostLabelsRequest(post_id=post_id, labels=body.labels), timeout=deadline,
                                        metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    return timeline_data(views.post(response.post))


@router.put("/follows/{followee_id}", summary="The viewer follows a user (not themselves: 400)", openapi_extra=VIEWER,
            responses=answers.timeline(TimelineFollow))
async def follow(request: Request, followee_id: UuidPath) -> JSONResponse:
    call, follower = await _signed(request, viewer_required=True)
    stub, _, deadline = _stubs(request)
    await stub.Follow(pb.FollowRequest(followee_id=followee_id), timeout=deadline,
                      metadata=call_metadata(request, actor=follower, tenant=call.tenant_id))
    follow: TimelineFollow = {"follower_id": str(follower), "followee_id": followee_id, "following": True}
    return timeline_data(follow)


@router.delete("/follows/{followee_id}", summary="The viewer unfollows a user", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineFollow))
async def unfollow(request: Request, followee_id: UuidPath) -> JSONResponse:
    call, follower = await _signed(request, viewer_required=True)
    stub, _, deadline = _stubs(request)
    await stub.Unfollow(pb.UnfollowRequest(followee_id=followee_id), timeout=deadline,
                        metadata=call_metadata(request, actor=follower, tenant=call.tenant_id))
    follow: TimelineFollow = {"follower_id": str(follower), "followee_id": followee_id, "following": False}
    return timeline_data(follow)


@router.put("/blocks/{blocked_id}", summary="The viewer blocks a user (not themselves: 400)", openapi_extra=VIEWER,
            responses=answers.timeline(TimelineBlock))
async def block(request: Request, blocked_id: UuidPath) -> JSONResponse:
    call, blocker = await _signed(request, viewer_required=True)
    stub, _, deadline = _stubs(request)
    await stub.Block(pb.BlockRequest(blocked_id=blocked_id), timeout=deadline,
                     metadata=call_metadata(request, actor=blocker, tenant=call.tenant_id))
    block: TimelineBlock = {"blocker_id": str(blocker), "blocked_id": blocked_id, "blocked": True}
    return timeline_data(block)


@router.delete("/blocks/{blocked_id}", summary="The viewer unblocks a user", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineBlock))
async def unblock(request: Request, blocked_id: UuidPath) -> JSONResponse:
    call, blocker = await _signed(request, viewer_required=True)
    stub, _, deadline = _stubs(request)
    await stub.Unblock(pb.UnblockRequest(blocked_id=blocked_id), timeout=deadline,
                       metadata=call_metadata(request, actor=blocker, tenant=call.tenant_id))
    block: TimelineBlock = {"blocker_id": str(blocker), "blocked_id": blocked_id, "blocked": False}
    return timeline_data(block)


@router.get("/home", summary="The viewer's home timeline, newest first",
            responses=answers.timeline(TimelineItem, paged=True),
            openapi_extra={"parameters": VIEWER["parameters"] + [
                {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1,
                                                                              "maximum": 100, "default": 50}},
                {"name": "cursor", "in": "query", "required": False, "schema": {"type": "string"},
                 "description": "page.next_cursor of the previous page, exactly as returned"},
            ]})
async def home(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    query = request.query_params
    message = pb.GetHomeTimelineRequest(cursor=query.get("cursor", ""))
    if "limit" in query:
        raw = query["limit"]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 4):
            raise ApiError(400, "invalid_limit", "limit must be an integer between 1 and 100")
        message.limit = int(raw)
    stub, _, deadline = _stubs(request)
    response = await stub.GetHomeTimeline(message, timeout=deadline,
                                          metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_page(views.items(response.items), response.next_cursor or None)


@router.post("/viewers/{viewer_id}/rebuild", summary="Rebuild a viewer's home timeline (accepted, run by a job)",
             description="Answers 202 with the rebuild, queued (its `Location`: `/api/v1/timeline/rebuilds/{id}`). "
                         "The viewer's following entries are rewritten from the canonical posts, follows and blocks "
                         "in one transaction, so reads go on seeing the old ones until the new ones are in; its own "
                         "posts stay. A viewer with a rebuild queued or running gets that one again. Past the "
                         "tenant's limit of rebuilds queued or running (TIMELINE_REBUILDS_PER_TENANT), a 409 "
                         "`too_many_rebuilds`.",
             status_code=202, openapi_extra=ANY_VIEWER, responses=answers.timeline(TimelineRebuild, 409, success=(202,)))
async def request_rebuild(request: Request, viewer_id: UuidPath) -> Response:
    call, actor = await _signed(request, viewer_required=False)
    stub, _, deadline = _stubs(request)
    response = await stub.RequestRebuild(pb.RequestRebuildRequest(viewer_id=viewer_id), timeout=deadline,
                                         metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    answer = timeline_data(views.rebuild(response.rebuild), status=202)
    answer.headers["Location"] = f"{router.prefix}/rebuilds/{response.rebuild.id}"
    return answer


@router.get("/viewers/{viewer_id}/rebuild", summary="The viewer's most recent rebuild", openapi_extra=ANY_VIEWER,
            responses=answers.timeline(TimelineRebuild, 404))
async def latest_rebuild(request: Request, viewer_id: UuidPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    stub, _, deadline = _stubs(request)
    response = await stub.GetRebuild(pb.GetRebuildRequest(viewer_id=viewer_id), timeout=deadline,
                                     metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    return timeline_data(views.rebuild(response.rebuild))


@router.get("/rebuilds/{rebuild_id}", summary="A rebuild: its status (queued, running, succeeded, failed) and counts",
            openapi_extra=ANY_VIEWER, responses=answers.timeline(TimelineRebuild, 404))
async def get_rebuild(request: Request, rebuild_id: UuidPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    stub, _, deadline = _stubs(request)
    response = await stub.GetRebuild(pb.GetRebuildRequest(rebuild_id=rebuild_id), timeout=deadline,
                                     metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    return timeline_data(views.rebuild(response.rebuild))


@router.get("/ping", summary="A signed no-op round trip to the timeline service (transport check)",
            description="Calls TimelineAdmin.Ping, which touches no data; no repair operation of "
                        "TimelineAdmin is reachable through the host API.",
            openapi_extra=ANY_VIEWER, responses=answers.timeline(TimelinePong))
async def ping(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=False)
    _, admin, deadline = _stubs(request)
    await admin.Ping(pb.PingRequest(), timeout=deadline, metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    pong: TimelinePong = {"ok": True}
    return timeline_data(pong)


@router.put("/mutes/{author_id}", summary="The viewer mutes an author, optionally until a time (not themselves: 400)",
            description="The author's posts leave the viewer's home timeline from the next read on and come back "
                        "on unmute or when `until` passes; nothing else changes (a mute is not a block). Muting "
                        "again replaces the end. At most 1,000 mutes per viewer (`limit_exceeded`).",
            openapi_extra=_with_body(MuteBody, VIEWER, required=False), responses=answers.timeline(TimelineMute))
async def mute(request: Request, author_id: UuidPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    body = await _body(request, MuteBody, optional=True)
    message = pb.MuteAuthorRequest(author_id=author_id)
    if body.until is not None:
        message.until.CopyFrom(_timestamp(body.until, "until"))
    stub, deadline = _policy(request)
    response = await stub.MuteAuthor(message, timeout=deadline,
                                     metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data(views.mute(response.mute))


@router.delete("/mutes/{author_id}", summary="The viewer unmutes an author", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineUnmuted))
async def unmute(request: Request, author_id: UuidPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    await stub.UnmuteAuthor(pb.UnmuteAuthorRequest(author_id=author_id), timeout=deadline,
                            metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    unmuted: TimelineUnmuted = {"author_id": author_id, "muted": False}
    return timeline_data(unmuted)


@router.get("/mutes", summary="The viewer's mutes in force, most recent first", openapi_extra=VIEWER,
            responses=answers.timeline(TimelineMute, listed=True))
async def list_mutes(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    response = await stub.ListMutes(pb.ListMutesRequest(), timeout=deadline,
                                    metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data([views.mute(mute) for mute in response.mutes])


@router.post("/filters", summary="The viewer adds a word filter (hide or warn), optionally until a time",
             description="From the next read on, home entries whose post matches the phrase are left out (`hide`) "
                         "or returned with the match in `filtered` (`warn`). At most 100 filters per viewer "
                         "(`limit_exceeded`).",
             status_code=201, openapi_extra=_with_body(WordFilterBody, VIEWER),
             responses=answers.timeline(TimelineWordFilter, success=(201,)))
async def create_filter(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    body = await _body(request, WordFilterBody)
    message = pb.CreateWordFilterRequest(phrase=body.phrase, action=views.FILTER_ACTION_PB[body.action])
    if body.expires_at is not None:
        message.expires_at.CopyFrom(_timestamp(body.expires_at, "expires_at"))
    stub, deadline = _policy(request)
    response = await stub.CreateWordFilter(message, timeout=deadline,
                                           metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data(views.word_filter(response.filter), status=201)


@router.get("/filters", summary="The viewer's word filters in force, oldest first", openapi_extra=VIEWER,
            responses=answers.timeline(TimelineWordFilter, listed=True))
async def list_filters(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    response = await stub.ListWordFilters(pb.ListWordFiltersRequest(), timeout=deadline,
                                          metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data([views.word_filter(word_filter) for word_filter in response.filters])


@router.delete("/filters/{filter_id}", summary="The viewer deletes one of its word filters", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineFilterDeleted, 404))
async def delete_filter(request: Request, filter_id: UuidPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    await stub.DeleteWordFilter(pb.DeleteWordFilterRequest(filter_id=filter_id), timeout=deadline,
                                metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    deleted: TimelineFilterDeleted = {"id": filter_id, "deleted": True}
    return timeline_data(deleted)


@router.put("/label-policies/{label}", summary="What a label does in the tenant's home timelines",
            description="`hide`, `warn` or `show`; with `viewer_may_change` (the default) a viewer's own preference "
                        "for the label decides for that viewer. A label with no policy is shown. At most 100 "
                        "policies per tenant (`limit_exceeded`).",
            openapi_extra=_with_body(LabelPolicyBody, ANY_VIEWER), responses=answers.timeline(TimelineLabelPolicy))
async def set_label_policy(request: Request, label: LabelPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    body = await _body(request, LabelPolicyBody)
    stub, deadline = _policy(request)
    policy = pb.LabelPolicy(label=label, action=views.LABEL_ACTION_PB[body.action],
                            viewer_may_change=body.viewer_may_change)
    response = await stub.SetLabelPolicy(pb.SetLabelPolicyRequest(policy=policy), timeout=deadline,
                                         metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    return timeline_data(views.label_policy(response.policy))


@router.delete("/label-policies/{label}", summary="Remove the tenant's policy for a label", openapi_extra=ANY_VIEWER,
               responses=answers.timeline(TimelineLabelRuleDeleted, 404))
async def delete_label_policy(request: Request, label: LabelPath) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    stub, deadline = _policy(request)
    await stub.DeleteLabelPolicy(pb.DeleteLabelPolicyRequest(label=label), timeout=deadline,
                                 metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    deleted: TimelineLabelRuleDeleted = {"label": label, "deleted": True}
    return timeline_data(deleted)


@router.get("/label-policies", summary="The tenant's label policies, by label", openapi_extra=ANY_VIEWER,
            responses=answers.timeline(TimelineLabelPolicy, listed=True))
async def list_label_policies(request: Request) -> JSONResponse:
    call, actor = await _signed(request, viewer_required=False)
    stub, deadline = _policy(request)
    response = await stub.ListLabelPolicies(pb.ListLabelPoliciesRequest(), timeout=deadline,
                                            metadata=call_metadata(request, actor=actor, tenant=call.tenant_id))
    return timeline_data([views.label_policy(policy) for policy in response.policies])


@router.put("/label-preferences/{label}", summary="What a label does in the viewer's home timeline",
            description="Decides for the viewer unless the tenant's policy for the label does not let viewers "
                        "change it. At most 100 preferences per viewer (`limit_exceeded`).",
            openapi_extra=_with_body(LabelPreferenceBody, VIEWER), responses=answers.timeline(TimelineLabelPreference))
async def set_label_preference(request: Request, label: LabelPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    body = await _body(request, LabelPreferenceBody)
    stub, deadline = _policy(request)
    preference = pb.LabelPreference(label=label, action=views.LABEL_ACTION_PB[body.action])
    response = await stub.SetLabelPreference(pb.SetLabelPreferenceRequest(preference=preference), timeout=deadline,
                                             metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data(views.label_preference(response.preference))


@router.delete("/label-preferences/{label}", summary="Remove the viewer's preference for a label", openapi_extra=VIEWER,
               responses=answers.timeline(TimelineLabelRuleDeleted, 404))
async def delete_label_preference(request: Request, label: LabelPath) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    await stub.DeleteLabelPreference(pb.DeleteLabelPreferenceRequest(label=label), timeout=deadline,
                                     metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    deleted: TimelineLabelRuleDeleted = {"label": label, "deleted": True}
    return timeline_data(deleted)


@router.get("/label-preferences", summary="The viewer's label preferences, by label", openapi_extra=VIEWER,
            responses=answers.timeline(TimelineLabelPreference, listed=True))
async def list_label_preferences(request: Request) -> JSONResponse:
    call, viewer = await _signed(request, viewer_required=True)
    stub, deadline = _policy(request)
    response = await stub.ListLabelPreferences(pb.ListLabelPreferencesRequest(), timeout=deadline,
                                               metadata=call_metadata(request, actor=viewer, tenant=call.tenant_id))
    return timeline_data([views.label_preference(preference) for preference in response.preferences])
