"""gRPC servicers: protobuf <-> domain only. Each RPC is one transaction, or one autocommit statement
for a read that is a single query (`Database.read()`), or the home page, which tolerates lag
(`Database.replica_read()`); identity comes from the call's metadata (feeds_runtime.context), never
from a message."""

from __future__ import annotations

from datetime import UTC, datetime

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.protobuf.timestamp_pb2 import Timestamp

from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.context import optional_actor, require_actor, require_tenant
from feeds_runtime.db import Database
from feeds_runtime.events import serve_list_events
from timeline import codes
from timeline.models import events as events_table
from timeline.domain import (
    FilterAction,
    FilterMatch,
    LabelPolicy,
    LabelPreference,
    Moderation,
    Mute,
    Post,
    Rebuild,
    RebuildStatus,
    Stats,
    TimelineItem,
    Visibility,
    WordFilter,
)
from timeline.policy import PolicyService
from timeline.projection import Projection
from timeline.service import TimelineService, parse_id
from timeline.settings import TimelineSettings

_VISIBILITY = {pb.VISIBILITY_PUBLIC: Visibility.PUBLIC, pb.VISIBILITY_PRIVATE: Visibility.PRIVATE}
_MODERATION = {pb.MODERATION_STATE_VISIBLE: Moderation.VISIBLE, pb.MODERATION_STATE_HIDDEN: Moderation.HIDDEN,
               pb.MODERATION_STATE_REMOVED: Moderation.REMOVED}
_FILTER_ACTION = {pb.FILTER_ACTION_UNSPECIFIED: FilterAction.HIDE, pb.FILTER_ACTION_HIDE: FilterAction.HIDE,
                  pb.FILTER_ACTION_WARN: FilterAction.WARN}
_LABEL_ACTION = {pb.FILTER_ACTION_HIDE: FilterAction.HIDE, pb.FILTER_ACTION_WARN: FilterAction.WARN,
                 pb.FILTER_ACTION_SHOW: FilterAction.SHOW}
_FILTER_ACTION_PB = {value: key for key, value in _LABEL_ACTION.items()}
_VISIBILITY_PB = {value: key for key, value in _VISIBILITY.items()}
_REBUILD_STATUS_PB = {RebuildStatus.QUEUED: pb.REBUILD_STATUS_QUEUED, RebuildStatus.RUNNING: pb.REBUILD_STATUS_RUNNING,
                      RebuildStatus.SUCCEEDED: pb.REBUILD_STATUS_SUCCEEDED, RebuildStatus.FAILED: pb.REBUILD_STATUS_FAILED}
_MODERATION_PB = {value: key for key, value in _MODERATION.items()}


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _timestamp_fields(value: datetime) -> dict[str, int]:
    """A Timestamp's fields from the timedelta's own parts: a page sets a hundred of these, and
    Timestamp.FromDatetime or dividing timedeltas is the slow path. Nanos stay in [0, 1e9) before
    the epoch too, as timedelta keeps its seconds and microseconds non-negative."""
    since = value - _EPOCH
    return {"seconds": since.days * 86_400 + since.seconds, "nanos": since.microseconds * 1000}


def _timestamp(value: datetime) -> Timestamp:
    return Timestamp(**_timestamp_fields(value))


def _optional_time(message, field: str) -> datetime | None:
    """A Timestamp field that may be absent, as an aware datetime."""
    return getattr(message, field).ToDatetime(tzinfo=UTC) if message.HasField(field) else None


def _mute(mute: Mute) -> pb.Mute:
    message = pb.Mute(author_id=str(mute.author_id), created_at=_timestamp(mute.created_at))
    if mute.until is not None:
        message.until.CopyFrom(_timestamp(mute.until))
    return message


def _stats(stats: Stats) -> pb.PostStats:
    return pb.PostStats(like_count=stats.like_count, reply_count=stats.reply_count, share_count=stats.share_count)


def post_message(post: Post) -> pb.Post:
    return pb.Post(id=str(post.id), author_id=str(post.author_id), body=post.body,
                   visibility=_VISIBILITY_PB[post.visibility], moderation_state=_MODERATION_PB[post.moderation_state],
                   published_at=_timestamp(post.published_at), stats=_stats(post.stats), labels=post.labels)


def _word_filter(word_filter: WordFilter) -> pb.WordFilter:
    message = pb.WordFilter(id=str(word_filter.id), phrase=word_filter.phrase,
                            action=_FILTER_ACTION_PB[word_filter.action], created_at=_timestamp(word_filter.created_at))
    if word_filter.expires_at is not None:
        message.expires_at.CopyFrom(_timestamp(word_filter.expires_at))
    return message


def _rebuild(rebuild: Rebuild) -> pb.Rebuild:
    message = pb.Rebuild(id=str(rebuild.id), viewer_id=str(rebuild.viewer_id), status=_REBUILD_STATUS_PB[rebuild.status],
                         requested_at=_timestamp(rebuild.requested_at), entries_written=rebuild.entries_written,
                         entries_removed=rebuild.entries_removed, error=rebuild.error or "")
    if rebuild.started_at is not None:
        message.started_at.CopyFrom(_timestamp(rebuild.started_at))
    if rebuild.finished_at is not None:
        message.finished_at.CopyFrom(_timestamp(rebuild.finished_at))
    return message


def _label_action(action: pb.FilterAction) -> FilterAction:
    found = _LABEL_ACTION.get(action)
    if found is None:
        raise codes.invalid_request("action must be hide, warn or show")
    return found


def _label_policy(policy: LabelPolicy) -> pb.LabelPolicy:
    return pb.LabelPolicy(label=policy.label, action=_FILTER_ACTION_PB[policy.action],
                          viewer_may_change=policy.viewer_may_change)


def _label_preference(preference: LabelPreference) -> pb.LabelPreference:
    return pb.LabelPreference(label=preference.label, action=_FILTER_ACTION_PB[preference.action])


def add_items(target: RepeatedCompositeFieldContainer[pb.TimelineItem], items: list[TimelineItem],
              filtered: dict[str, list[FilterMatch]]) -> None:
    """Append the items to a repeated TimelineItem field, with the matches of those a warn marks.
    Each is added in place, its nested messages given as field dicts: a message built first and then
    passed in would be copied, and a page adds fifty. Stats are present with zero counts too."""
    add = target.add
    for item in items:
        matches = filtered.get(item.entry_id)
        add(entry_id=item.entry_id, post_id=item.post_id, author_id=item.author_id, body=item.body,
            published_at=_timestamp_fields(item.published_at), ranked_at=_timestamp_fields(item.ranked_at),
            stats={"like_count": item.like_count, "reply_count": item.reply_count, "share_count": item.share_count},
            filtered=[match._asdict() for match in matches] if matches else None, labels=item.labels)


class TimelineServicer(timeline_pb2_grpc.TimelineServiceServicer):
    def __init__(self, database: Database, settings: TimelineSettings) -> None:
        self._database = database
        self._settings = settings

    def _service(self, session) -> TimelineService:
        return TimelineService(session, self._settings)

    def PublishPost(self, request: pb.PublishPostRequest, context) -> pb.PublishPostResponse:
        tenant, author = require_tenant(), require_actor()
        visibility = Visibility.PUBLIC if request.visibility == pb.VISIBILITY_UNSPECIFIED else _VISIBILITY.get(request.visibility)
        if visibility is None:
            raise codes.invalid_request("visibility must be public or private")
        with self._database.transaction() as session:
            post, replayed = self._service(session).publish(tenant, author, request.body, visibility,
                                                            request.idempotency_key or None, list(request.labels))
        return pb.PublishPostResponse(post=post_message(post), replayed=replayed)

    def GetPost(self, request: pb.GetPostRequest, context) -> pb.GetPostResponse:
        tenant, viewer = require_tenant(), optional_actor()
        post_id = parse_id(request.post_id, "post_id")
        with self._database.read() as connection:
            post = self._service(connection).get_post(tenant, post_id, viewer)
        return pb.GetPostResponse(post=post_message(post))

    def DeletePost(self, request: pb.DeletePostRequest, context) -> pb.DeletePostResponse:
        tenant, actor = require_tenant(), require_actor()
        post_id = parse_id(request.post_id, "post_id")
        with self._database.transaction() as session:
            self._service(session).delete_post(tenant, actor, post_id)
        return pb.DeletePostResponse()

    def SetModeration(self, request: pb.SetModerationRequest, context) -> pb.SetModerationResponse:
        tenant = require_tenant()
        post_id = parse_id(request.post_id, "post_id")
        state = _MODERATION.get(request.moderation_state)
        if state is None:
            raise codes.invalid_request("moderation_state must be visible, hidden or removed")
        with self._database.transaction() as session:
            post = self._service(session).set_moderation(tenant, post_id, state)
        return pb.SetModerationResponse(post=post_message(post))

    def SetPostLabels(self, request: pb.SetPostLabelsRequest, context) -> pb.SetPostLabelsResponse:
        tenant = require_tenant()
        post_id = parse_id(request.post_id, "post_id")
        with self._database.transaction() as session:
            post = self._service(session).set_labels(tenant, post_id, list(request.labels))
        return pb.SetPostLabelsResponse(post=post_message(post))

    def Follow(self, request: pb.FollowRequest, context) -> pb.FollowResponse:
        tenant, actor = require_tenant(), require_actor()
        followee = parse_id(request.followee_id, "followee_id")
        with self._database.transaction() as session:
            self._service(session).follow(tenant, actor, followee)
        return pb.FollowResponse()

    def Unfollow(self, request: pb.UnfollowRequest, context) -> pb.UnfollowResponse:
        tenant, actor = require_tenant(), require_actor()
        followee = parse_id(request.followee_id, "followee_id")
        with self._database.transaction() as session:
            self._service(session).unfollow(tenant, actor, followee)
        return pb.UnfollowResponse()

    def Block(self, request: pb.BlockRequest, context) -> pb.BlockResponse:
        tenant, actor = require_tenant(), require_actor()
        blocked = parse_id(request.blocked_id, "blocked_id")
        with self._database.transaction() as session:
            self._service(session).block(tenant, actor, blocked)
        return pb.BlockResponse()

    def Unblock(self, request: pb.UnblockRequest, context) -> pb.UnblockResponse:
        tenant, actor = require_tenant(), require_actor()
        blocked = parse_id(request.blocked_id, "blocked_id")
        with self._database.transaction() as session:
            self._service(session).unblock(tenant, actor, blocked)
        return pb.UnblockResponse()

    def GetHomeTimeline(self, request: pb.GetHomeTimelineRequest, context) -> pb.GetHomeTimelineResponse:
        tenant, viewer = require_tenant(), require_actor()
        limit = request.limit if request.HasField("limit") else None
        # Lag-tolerant: a replica, unless the viewer's own last write is not there yet.
        page = self._database.replica_read(lambda connection: self._service(connection).home(
            tenant, viewer, limit, request.cursor))
        response = pb.GetHomeTimelineResponse(next_cursor=page.next_cursor or "")
        add_items(response.items, page.items, page.filtered)
        return response


    def RequestRebuild(self, request: pb.RequestRebuildRequest, context) -> pb.RequestRebuildResponse:
        tenant = require_tenant()
        viewer = parse_id(request.viewer_id, "viewer_id")
        with self._database.transaction() as session:
            rebuild, created = self._service(session).request_rebuild(tenant, viewer)
        return pb.RequestRebuildResponse(rebuild=_rebuild(rebuild), created=created)

    def GetRebuild(self, request: pb.GetRebuildRequest, context) -> pb.GetRebuildResponse:
        tenant = require_tenant()
        with self._database.read() as connection:
            service = self._service(connection)
            if request.HasField("viewer_id"):
                rebuild = service.latest_rebuild(tenant, parse_id(request.viewer_id, "viewer_id"))
            else:
                rebuild = service.get_rebuild(tenant, parse_id(request.rebuild_id, "rebuild_id"))
        return pb.GetRebuildResponse(rebuild=_rebuild(rebuild))


class TimelinePolicyServicer(timeline_pb2_grpc.TimelinePolicyServicer):
    """The viewer's own policy over its home timeline (timeline.policy)."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def MuteAuthor(self, request: pb.MuteAuthorRequest, context) -> pb.MuteAuthorResponse:
        tenant, viewer = require_tenant(), require_actor()
        author = parse_id(request.author_id, "author_id")
        with self._database.transaction() as session:
            mute = PolicyService(session).mute(tenant, viewer, author, _optional_time(request, "until"))
        return pb.MuteAuthorResponse(mute=_mute(mute))

    def UnmuteAuthor(self, request: pb.UnmuteAuthorRequest, context) -> pb.UnmuteAuthorResponse:
        tenant, viewer = require_tenant(), require_actor()
        author = parse_id(request.author_id, "author_id")
        with self._database.transaction() as session:
            PolicyService(session).unmute(tenant, viewer, author)
        return pb.UnmuteAuthorResponse()

    def ListMutes(self, request: pb.ListMutesRequest, context) -> pb.ListMutesResponse:
        tenant, viewer = require_tenant(), require_actor()
        with self._database.read() as connection:
            mutes = PolicyService(connection).mutes_of(tenant, viewer)
        return pb.ListMutesResponse(mutes=[_mute(mute) for mute in mutes])

    def CreateWordFilter(self, request: pb.CreateWordFilterRequest, context) -> pb.CreateWordFilterResponse:
        tenant, viewer = require_tenant(), require_actor()
        action = _FILTER_ACTION.get(request.action)
        if action is None:
            raise codes.invalid_request("a word filter's action must be hide or warn")
        with self._database.transaction() as session:
            word_filter = PolicyService(session).add_filter(tenant, viewer, request.phrase, action,
                                                            _optional_time(request, "expires_at"))
        return pb.CreateWordFilterResponse(filter=_word_filter(word_filter))

    def DeleteWordFilter(self, request: pb.DeleteWordFilterRequest, context) -> pb.DeleteWordFilterResponse:
        tenant, viewer = require_tenant(), require_actor()
        filter_id = parse_id(request.filter_id, "filter_id")
        with self._database.transaction() as session:
            PolicyService(session).delete_filter(tenant, viewer, filter_id)
        return pb.DeleteWordFilterResponse()

    def ListWordFilters(self, request: pb.ListWordFiltersRequest, context) -> pb.ListWordFiltersResponse:
        tenant, viewer = require_tenant(), require_actor()
        with self._database.read() as connection:
            filters = PolicyService(connection).filters_of(tenant, viewer)
        return pb.ListWordFiltersResponse(filters=[_word_filter(word_filter) for word_filter in filters])

    def SetLabelPolicy(self, request: pb.SetLabelPolicyRequest, context) -> pb.SetLabelPolicyResponse:
        tenant = require_tenant()
        policy = LabelPolicy(request.policy.label, _label_action(request.policy.action),
                             request.policy.viewer_may_change)
        with self._database.transaction() as session:
            PolicyService(session).set_label_policy(tenant, policy)
        return pb.SetLabelPolicyResponse(policy=_label_policy(policy))

    def DeleteLabelPolicy(self, request: pb.DeleteLabelPolicyRequest, context) -> pb.DeleteLabelPolicyResponse:
        tenant = require_tenant()
        with self._database.transaction() as session:
            PolicyService(session).delete_label_policy(tenant, request.label)
        return pb.DeleteLabelPolicyResponse()

    def ListLabelPolicies(self, request: pb.ListLabelPoliciesRequest, context) -> pb.ListLabelPoliciesResponse:
        tenant = require_tenant()
        with self._database.read() as connection:
            policies = PolicyService(connection).label_policies(tenant)
        return pb.ListLabelPoliciesResponse(policies=[_label_policy(policy) for policy in policies])

    def SetLabelPreference(self, request: pb.SetLabelPreferenceRequest, context) -> pb.SetLabelPreferenceResponse:
        tenant, viewer = require_tenant(), require_actor()
        preference = LabelPreference(request.preference.label, _label_action(request.preference.action))
        with self._database.transaction() as session:
            PolicyService(session).set_label_preference(tenant, viewer, preference)
        return pb.SetLabelPreferenceResponse(preference=_label_preference(preference))

    def DeleteLabelPreference(self, request: pb.DeleteLabelPreferenceRequest,
                              context) -> pb.DeleteLabelPreferenceResponse:
        tenant, viewer = require_tenant(), require_actor()
        with self._database.transaction() as session:
            PolicyService(session).delete_label_preference(tenant, viewer, request.label)
        return pb.DeleteLabelPreferenceResponse()

    def ListLabelPreferences(self, request: pb.ListLabelPreferencesRequest,
                             context) -> pb.ListLabelPreferencesResponse:
        tenant, viewer = require_tenant(), require_actor()
        with self._database.read() as connection:
            preferences = PolicyService(connection).label_preferences(tenant, viewer)
        return pb.ListLabelPreferencesResponse(preferences=[_label_preference(p) for p in preferences])


class TimelineAdminServicer(timeline_pb2_grpc.TimelineAdminServicer):
    """Internal repair: rebuild or audit one viewer of the calling tenant."""

    def __init__(self, database: Database, settings: TimelineSettings) -> None:
        self._database = database
        self._settings = settings

    def RebuildViewer(self, request: pb.RebuildViewerRequest, context) -> pb.RebuildViewerResponse:
        tenant = require_tenant()
        viewer = parse_id(request.viewer_id, "viewer_id")
        with self._database.transaction() as session:
            upserted, removed = Projection(session, self._settings).rebuild(tenant, viewer)
        return pb.RebuildViewerResponse(upserted=upserted, removed=removed)

    def AuditViewer(self, request: pb.AuditViewerRequest, context) -> pb.AuditViewerResponse:
        tenant = require_tenant()
        viewer = parse_id(request.viewer_id, "viewer_id")
        with self._database.transaction() as session:
            audit = Projection(session, self._settings).audit(tenant, viewer)
        return pb.AuditViewerResponse(missing_post_ids=[str(p) for p in audit.missing_post_ids],
                                      extra_post_ids=[str(p) for p in audit.extra_post_ids], in_sync=audit.in_sync)

    def Ping(self, request: pb.PingRequest, context) -> pb.PingResponse:
        return pb.PingResponse()


class TimelineEventsServicer(timeline_pb2_grpc.TimelineEventsServicer):
    """The calling tenant's integration events, from a position (feeds_runtime.events)."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def ListEvents(self, request: pb.ListEventsRequest, context) -> pb.ListEventsResponse:
        return serve_list_events(self._database, events_table, request, pb.ListEventsResponse,
                                 codes.invalid_request, tenant_id=require_tenant())
