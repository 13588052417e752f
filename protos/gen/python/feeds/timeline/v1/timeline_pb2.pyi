import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Visibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VISIBILITY_UNSPECIFIED: _ClassVar[Visibility]
    VISIBILITY_PUBLIC: _ClassVar[Visibility]
    VISIBILITY_PRIVATE: _ClassVar[Visibility]

class ModerationState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODERATION_STATE_UNSPECIFIED: _ClassVar[ModerationState]
    MODERATION_STATE_VISIBLE: _ClassVar[ModerationState]
    MODERATION_STATE_HIDDEN: _ClassVar[ModerationState]
    MODERATION_STATE_REMOVED: _ClassVar[ModerationState]

class RebuildStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REBUILD_STATUS_UNSPECIFIED: _ClassVar[RebuildStatus]
    REBUILD_STATUS_QUEUED: _ClassVar[RebuildStatus]
    REBUILD_STATUS_RUNNING: _ClassVar[RebuildStatus]
    REBUILD_STATUS_SUCCEEDED: _ClassVar[RebuildStatus]
    REBUILD_STATUS_FAILED: _ClassVar[RebuildStatus]

class FilterAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FILTER_ACTION_UNSPECIFIED: _ClassVar[FilterAction]
    FILTER_ACTION_HIDE: _ClassVar[FilterAction]
    FILTER_ACTION_WARN: _ClassVar[FilterAction]
    FILTER_ACTION_SHOW: _ClassVar[FilterAction]
VISIBILITY_UNSPECIFIED: Visibility
VISIBILITY_PUBLIC: Visibility
VISIBILITY_PRIVATE: Visibility
MODERATION_STATE_UNSPECIFIED: ModerationState
MODERATION_STATE_VISIBLE: ModerationState
MODERATION_STATE_HIDDEN: ModerationState
MODERATION_STATE_REMOVED: ModerationState
REBUILD_STATUS_UNSPECIFIED: RebuildStatus
REBUILD_STATUS_QUEUED: RebuildStatus
REBUILD_STATUS_RUNNING: RebuildStatus
REBUILD_STATUS_SUCCEEDED: RebuildStatus
REBUILD_STATUS_FAILED: RebuildStatus
FILTER_ACTION_UNSPECIFIED: FilterAction
FILTER_ACTION_HIDE: FilterAction
FILTER_ACTION_WARN: FilterAction
FILTER_ACTION_SHOW: FilterAction

class PostStats(_message.Message):
    __slots__ = ("like_count", "reply_count", "share_count")
    LIKE_COUNT_FIELD_NUMBER: _ClassVar[int]
    REPLY_COUNT_FIELD_NUMBER: _ClassVar[int]
    SHARE_COUNT_FIELD_NUMBER: _ClassVar[int]
    like_count: int
    reply_count: int
    share_count: int
    def __init__(self, like_count: _Optional[int] = ..., reply_count: _Optional[int] = ..., share_count: _Optional[int] = ...) -> None: ...

class Post(_message.Message):
    __slots__ = ("id", "author_id", "body", "visibility", "moderation_state", "published_at", "stats", "labels")
    ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    MODERATION_STATE_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    id: str
    author_id: str
    body: str
    visibility: Visibility
    moderation_state: ModerationState
    published_at: _timestamp_pb2.Timestamp
    stats: PostStats
    labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., author_id: _Optional[str] = ..., body: _Optional[str] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., moderation_state: _Optional[_Union[ModerationState, str]] = ..., published_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., stats: _Optional[_Union[PostStats, _Mapping]] = ..., labels: _Optional[_Iterable[str]] = ...) -> None: ...

class FilterMatch(_message.Message):
    __slots__ = ("kind", "filter_id", "value")
    KIND_FIELD_NUMBER: _ClassVar[int]
    FILTER_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    filter_id: str
    value: str
    def __init__(self, kind: _Optional[str] = ..., filter_id: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...

class TimelineItem(_message.Message):
    __slots__ = ("entry_id", "post_id", "author_id", "body", "published_at", "ranked_at", "stats", "filtered", "labels")
    ENTRY_ID_FIELD_NUMBER: _ClassVar[int]
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    RANKED_AT_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    FILTERED_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    entry_id: str
    post_id: str
    author_id: str
    body: str
    published_at: _timestamp_pb2.Timestamp
    ranked_at: _timestamp_pb2.Timestamp
    stats: PostStats
    filtered: _containers.RepeatedCompositeFieldContainer[FilterMatch]
    labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, entry_id: _Optional[str] = ..., post_id: _Optional[str] = ..., author_id: _Optional[str] = ..., body: _Optional[str] = ..., published_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ranked_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., stats: _Optional[_Union[PostStats, _Mapping]] = ..., filtered: _Optional[_Iterable[_Union[FilterMatch, _Mapping]]] = ..., labels: _Optional[_Iterable[str]] = ...) -> None: ...

class PublishPostRequest(_message.Message):
    __slots__ = ("body", "visibility", "idempotency_key", "labels")
    BODY_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    body: str
    visibility: Visibility
    idempotency_key: str
    labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, body: _Optional[str] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., idempotency_key: _Optional[str] = ..., labels: _Optional[_Iterable[str]] = ...) -> None: ...

class PublishPostResponse(_message.Message):
    __slots__ = ("post", "replayed")
    POST_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    post: Post
    replayed: bool
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class GetPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class GetPostResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class DeletePostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class DeletePostResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SetModerationRequest(_message.Message):
    __slots__ = ("post_id", "moderation_state")
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    MODERATION_STATE_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    moderation_state: ModerationState
    def __init__(self, post_id: _Optional[str] = ..., moderation_state: _Optional[_Union[ModerationState, str]] = ...) -> None: ...

class SetModerationResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class SetPostLabelsRequest(_message.Message):
    __slots__ = ("post_id", "labels")
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, post_id: _Optional[str] = ..., labels: _Optional[_Iterable[str]] = ...) -> None: ...

class SetPostLabelsResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class FollowRequest(_message.Message):
    __slots__ = ("followee_id",)
    FOLLOWEE_ID_FIELD_NUMBER: _ClassVar[int]
    followee_id: str
    def __init__(self, followee_id: _Optional[str] = ...) -> None: ...

class FollowResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class UnfollowRequest(_message.Message):
    __slots__ = ("followee_id",)
    FOLLOWEE_ID_FIELD_NUMBER: _ClassVar[int]
    followee_id: str
    def __init__(self, followee_id: _Optional[str] = ...) -> None: ...

class UnfollowResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BlockRequest(_message.Message):
    __slots__ = ("blocked_id",)
    BLOCKED_ID_FIELD_NUMBER: _ClassVar[int]
    blocked_id: str
    def __init__(self, blocked_id: _Optional[str] = ...) -> None: ...

class BlockResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class UnblockRequest(_message.Message):
    __slots__ = ("blocked_id",)
    BLOCKED_ID_FIELD_NUMBER: _ClassVar[int]
    blocked_id: str
    def __init__(self, blocked_id: _Optional[str] = ...) -> None: ...

class UnblockResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetHomeTimelineRequest(_message.Message):
    __slots__ = ("limit", "cursor")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    limit: int
    cursor: str
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class GetHomeTimelineResponse(_message.Message):
    __slots__ = ("items", "next_cursor")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TimelineItem]
    next_cursor: str
    def __init__(self, items: _Optional[_Iterable[_Union[TimelineItem, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class Rebuild(_message.Message):
    __slots__ = ("id", "viewer_id", "status", "requested_at", "started_at", "finished_at", "entries_written", "entries_removed", "error")
    ID_FIELD_NUMBER: _ClassVar[int]
    VIEWER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_AT_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_WRITTEN_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_REMOVED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    id: str
    viewer_id: str
    status: RebuildStatus
    requested_at: _timestamp_pb2.Timestamp
    started_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    entries_written: int
    entries_removed: int
    error: str
    def __init__(self, id: _Optional[str] = ..., viewer_id: _Optional[str] = ..., status: _Optional[_Union[RebuildStatus, str]] = ..., requested_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., entries_written: _Optional[int] = ..., entries_removed: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class RequestRebuildRequest(_message.Message):
    __slots__ = ("viewer_id",)
    VIEWER_ID_FIELD_NUMBER: _ClassVar[int]
    viewer_id: str
    def __init__(self, viewer_id: _Optional[str] = ...) -> None: ...

class RequestRebuildResponse(_message.Message):
    __slots__ = ("rebuild", "created")
    REBUILD_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    rebuild: Rebuild
    created: bool
    def __init__(self, rebuild: _Optional[_Union[Rebuild, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class GetRebuildRequest(_message.Message):
    __slots__ = ("rebuild_id", "viewer_id")
    REBUILD_ID_FIELD_NUMBER: _ClassVar[int]
    VIEWER_ID_FIELD_NUMBER: _ClassVar[int]
    rebuild_id: str
    viewer_id: str
    def __init__(self, rebuild_id: _Optional[str] = ..., viewer_id: _Optional[str] = ...) -> None: ...

class GetRebuildResponse(_message.Message):
    __slots__ = ("rebuild",)
    REBUILD_FIELD_NUMBER: _ClassVar[int]
    rebuild: Rebuild
    def __init__(self, rebuild: _Optional[_Union[Rebuild, _Mapping]] = ...) -> None: ...

class Mute(_message.Message):
    __slots__ = ("author_id", "until", "created_at")
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    author_id: str
    until: _timestamp_pb2.Timestamp
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, author_id: _Optional[str] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class MuteAuthorRequest(_message.Message):
    __slots__ = ("author_id", "until")
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    author_id: str
    until: _timestamp_pb2.Timestamp
    def __init__(self, author_id: _Optional[str] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class MuteAuthorResponse(_message.Message):
    __slots__ = ("mute",)
    MUTE_FIELD_NUMBER: _ClassVar[int]
    mute: Mute
    def __init__(self, mute: _Optional[_Union[Mute, _Mapping]] = ...) -> None: ...

class UnmuteAuthorRequest(_message.Message):
    __slots__ = ("author_id",)
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    author_id: str
    def __init__(self, author_id: _Optional[str] = ...) -> None: ...

class UnmuteAuthorResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMutesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMutesResponse(_message.Message):
    __slots__ = ("mutes",)
    MUTES_FIELD_NUMBER: _ClassVar[int]
    mutes: _containers.RepeatedCompositeFieldContainer[Mute]
    def __init__(self, mutes: _Optional[_Iterable[_Union[Mute, _Mapping]]] = ...) -> None: ...

class WordFilter(_message.Message):
    __slots__ = ("id", "phrase", "action", "created_at", "expires_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    PHRASE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    phrase: str
    action: FilterAction
    created_at: _timestamp_pb2.Timestamp
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., phrase: _Optional[str] = ..., action: _Optional[_Union[FilterAction, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateWordFilterRequest(_message.Message):
    __slots__ = ("phrase", "action", "expires_at")
    PHRASE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    phrase: str
    action: FilterAction
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, phrase: _Optional[str] = ..., action: _Optional[_Union[FilterAction, str]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateWordFilterResponse(_message.Message):
    __slots__ = ("filter",)
    FILTER_FIELD_NUMBER: _ClassVar[int]
    filter: WordFilter
    def __init__(self, filter: _Optional[_Union[WordFilter, _Mapping]] = ...) -> None: ...

class DeleteWordFilterRequest(_message.Message):
    __slots__ = ("filter_id",)
    FILTER_ID_FIELD_NUMBER: _ClassVar[int]
    filter_id: str
    def __init__(self, filter_id: _Optional[str] = ...) -> None: ...

class DeleteWordFilterResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListWordFiltersRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListWordFiltersResponse(_message.Message):
    __slots__ = ("filters",)
    FILTERS_FIELD_NUMBER: _ClassVar[int]
    filters: _containers.RepeatedCompositeFieldContainer[WordFilter]
    def __init__(self, filters: _Optional[_Iterable[_Union[WordFilter, _Mapping]]] = ...) -> None: ...

class LabelPolicy(_message.Message):
    __slots__ = ("label", "action", "viewer_may_change")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_MAY_CHANGE_FIELD_NUMBER: _ClassVar[int]
    label: str
    action: FilterAction
    viewer_may_change: bool
    def __init__(self, label: _Optional[str] = ..., action: _Optional[_Union[FilterAction, str]] = ..., viewer_may_change: _Optional[bool] = ...) -> None: ...

class SetLabelPolicyRequest(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: LabelPolicy
    def __init__(self, policy: _Optional[_Union[LabelPolicy, _Mapping]] = ...) -> None: ...

class SetLabelPolicyResponse(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: LabelPolicy
    def __init__(self, policy: _Optional[_Union[LabelPolicy, _Mapping]] = ...) -> None: ...

class DeleteLabelPolicyRequest(_message.Message):
    __slots__ = ("label",)
    LABEL_FIELD_NUMBER: _ClassVar[int]
    label: str
    def __init__(self, label: _Optional[str] = ...) -> None: ...

class DeleteLabelPolicyResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLabelPoliciesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLabelPoliciesResponse(_message.Message):
    __slots__ = ("policies",)
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    policies: _containers.RepeatedCompositeFieldContainer[LabelPolicy]
    def __init__(self, policies: _Optional[_Iterable[_Union[LabelPolicy, _Mapping]]] = ...) -> None: ...

class LabelPreference(_message.Message):
    __slots__ = ("label", "action")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    label: str
    action: FilterAction
    def __init__(self, label: _Optional[str] = ..., action: _Optional[_Union[FilterAction, str]] = ...) -> None: ...

class SetLabelPreferenceRequest(_message.Message):
    __slots__ = ("preference",)
    PREFERENCE_FIELD_NUMBER: _ClassVar[int]
    preference: LabelPreference
    def __init__(self, preference: _Optional[_Union[LabelPreference, _Mapping]] = ...) -> None: ...

class SetLabelPreferenceResponse(_message.Message):
    __slots__ = ("preference",)
    PREFERENCE_FIELD_NUMBER: _ClassVar[int]
    preference: LabelPreference
    def __init__(self, preference: _Optional[_Union[LabelPreference, _Mapping]] = ...) -> None: ...

class DeleteLabelPreferenceRequest(_message.Message):
    __slots__ = ("label",)
    LABEL_FIELD_NUMBER: _ClassVar[int]
    label: str
    def __init__(self, label: _Optional[str] = ...) -> None: ...

class DeleteLabelPreferenceResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLabelPreferencesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLabelPreferencesResponse(_message.Message):
    __slots__ = ("preferences",)
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    preferences: _containers.RepeatedCompositeFieldContainer[LabelPreference]
    def __init__(self, preferences: _Optional[_Iterable[_Union[LabelPreference, _Mapping]]] = ...) -> None: ...

class RebuildViewerRequest(_message.Message):
    __slots__ = ("viewer_id",)
    VIEWER_ID_FIELD_NUMBER: _ClassVar[int]
    viewer_id: str
    def __init__(self, viewer_id: _Optional[str] = ...) -> None: ...

class RebuildViewerResponse(_message.Message):
    __slots__ = ("upserted", "removed")
    UPSERTED_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    upserted: int
    removed: int
    def __init__(self, upserted: _Optional[int] = ..., removed: _Optional[int] = ...) -> None: ...

class AuditViewerRequest(_message.Message):
    __slots__ = ("viewer_id",)
    VIEWER_ID_FIELD_NUMBER: _ClassVar[int]
    viewer_id: str
    def __init__(self, viewer_id: _Optional[str] = ...) -> None: ...

class AuditViewerResponse(_message.Message):
    __slots__ = ("missing_post_ids", "extra_post_ids", "in_sync")
    MISSING_POST_IDS_FIELD_NUMBER: _ClassVar[int]
    EXTRA_POST_IDS_FIELD_NUMBER: _ClassVar[int]
    IN_SYNC_FIELD_NUMBER: _ClassVar[int]
    missing_post_ids: _containers.RepeatedScalarFieldContainer[str]
    extra_post_ids: _containers.RepeatedScalarFieldContainer[str]
    in_sync: bool
    def __init__(self, missing_post_ids: _Optional[_Iterable[str]] = ..., extra_post_ids: _Optional[_Iterable[str]] = ..., in_sync: _Optional[bool] = ...) -> None: ...

class PingRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Event(_message.Message):
    __slots__ = ("position", "type", "payload_json", "occurred_at")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_JSON_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    position: int
    type: str
    payload_json: str
    occurred_at: _timestamp_pb2.Timestamp
    def __init__(self, position: _Optional[int] = ..., type: _Optional[str] = ..., payload_json: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListEventsRequest(_message.Message):
    __slots__ = ("after", "limit")
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    after: int
    limit: int
    def __init__(self, after: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListEventsResponse(_message.Message):
    __slots__ = ("events", "next_after")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    next_after: int
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., next_after: _Optional[int] = ...) -> None: ...
