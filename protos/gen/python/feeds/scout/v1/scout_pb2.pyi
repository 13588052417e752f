from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Brief(_message.Message):
    __slots__ = ("theme_key", "theme_label", "intent", "mode", "brand_id", "terms", "target_count", "recent_days")
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    THEME_LABEL_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    BRAND_ID_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    TARGET_COUNT_FIELD_NUMBER: _ClassVar[int]
    RECENT_DAYS_FIELD_NUMBER: _ClassVar[int]
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str
    terms: _containers.RepeatedScalarFieldContainer[str]
    target_count: int
    recent_days: int
    def __init__(self, theme_key: _Optional[str] = ..., theme_label: _Optional[str] = ..., intent: _Optional[str] = ..., mode: _Optional[str] = ..., brand_id: _Optional[str] = ..., terms: _Optional[_Iterable[str]] = ..., target_count: _Optional[int] = ..., recent_days: _Optional[int] = ...) -> None: ...

class PageRequest(_message.Message):
    __slots__ = ("page", "page_size")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    page: int
    page_size: int
    def __init__(self, page: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class Pagination(_message.Message):
    __slots__ = ("page", "page_size", "total", "total_pages")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TOTAL_PAGES_FIELD_NUMBER: _ClassVar[int]
    page: int
    page_size: int
    total: int
    total_pages: int
    def __init__(self, page: _Optional[int] = ..., page_size: _Optional[int] = ..., total: _Optional[int] = ..., total_pages: _Optional[int] = ...) -> None: ...

class StageTiming(_message.Message):
    __slots__ = ("stage", "duration_ms")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    stage: str
    duration_ms: int
    def __init__(self, stage: _Optional[str] = ..., duration_ms: _Optional[int] = ...) -> None: ...

class SourceFailure(_message.Message):
    __slots__ = ("source", "kind")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    source: str
    kind: str
    def __init__(self, source: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class ScoutRun(_message.Message):
    __slots__ = ("id", "job_id", "theme_key", "theme_label", "intent", "mode", "brand_id", "target_count", "status", "searched_count", "duplicate_count", "irrelevant_count", "eligible_count", "pending_count", "shortfall_count", "shortfall_reasons", "created_at", "started_at", "completed_at", "error_summary", "stage_timings", "terms", "legacy", "source_failures")
    ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    THEME_LABEL_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    BRAND_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_COUNT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEARCHED_COUNT_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_COUNT_FIELD_NUMBER: _ClassVar[int]
    IRRELEVANT_COUNT_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_COUNT_FIELD_NUMBER: _ClassVar[int]
    PENDING_COUNT_FIELD_NUMBER: _ClassVar[int]
    SHORTFALL_COUNT_FIELD_NUMBER: _ClassVar[int]
    SHORTFALL_REASONS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    ERROR_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    STAGE_TIMINGS_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FAILURES_FIELD_NUMBER: _ClassVar[int]
    id: str
    job_id: str
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str
    target_count: int
    status: str
    searched_count: int
    duplicate_count: int
    irrelevant_count: int
    eligible_count: int
    pending_count: int
    shortfall_count: int
    shortfall_reasons: _containers.RepeatedScalarFieldContainer[str]
    created_at: int
    started_at: int
    completed_at: int
    error_summary: str
    stage_timings: _containers.RepeatedCompositeFieldContainer[StageTiming]
    terms: _containers.RepeatedScalarFieldContainer[str]
    legacy: bool
    source_failures: _containers.RepeatedCompositeFieldContainer[SourceFailure]
    def __init__(self, id: _Optional[str] = ..., job_id: _Optional[str] = ..., theme_key: _Optional[str] = ..., theme_label: _Optional[str] = ..., intent: _Optional[str] = ..., mode: _Optional[str] = ..., brand_id: _Optional[str] = ..., target_count: _Optional[int] = ..., status: _Optional[str] = ..., searched_count: _Optional[int] = ..., duplicate_count: _Optional[int] = ..., irrelevant_count: _Optional[int] = ..., eligible_count: _Optional[int] = ..., pending_count: _Optional[int] = ..., shortfall_count: _Optional[int] = ..., shortfall_reasons: _Optional[_Iterable[str]] = ..., created_at: _Optional[int] = ..., started_at: _Optional[int] = ..., completed_at: _Optional[int] = ..., error_summary: _Optional[str] = ..., stage_timings: _Optional[_Iterable[_Union[StageTiming, _Mapping]]] = ..., terms: _Optional[_Iterable[str]] = ..., legacy: _Optional[bool] = ..., source_failures: _Optional[_Iterable[_Union[SourceFailure, _Mapping]]] = ...) -> None: ...

class ScoutPost(_message.Message):
    __slots__ = ("id", "run_id", "theme_key", "canonical_id", "url", "author", "text", "score", "match_reason", "posted_at", "created_at", "outreach_status", "draft_text")
    ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MATCH_REASON_FIELD_NUMBER: _ClassVar[int]
    POSTED_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    OUTREACH_STATUS_FIELD_NUMBER: _ClassVar[int]
    DRAFT_TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    run_id: str
    theme_key: str
    canonical_id: str
    url: str
    author: str
    text: str
    score: float
    match_reason: str
    posted_at: int
    created_at: int
    outreach_status: str
    draft_text: str
    def __init__(self, id: _Optional[str] = ..., run_id: _Optional[str] = ..., theme_key: _Optional[str] = ..., canonical_id: _Optional[str] = ..., url: _Optional[str] = ..., author: _Optional[str] = ..., text: _Optional[str] = ..., score: _Optional[float] = ..., match_reason: _Optional[str] = ..., posted_at: _Optional[int] = ..., created_at: _Optional[int] = ..., outreach_status: _Optional[str] = ..., draft_text: _Optional[str] = ...) -> None: ...

class Homework(_message.Message):
    __slots__ = ("theme_key", "brief", "created_at", "updated_at")
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    BRIEF_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    theme_key: str
    brief: Brief
    created_at: int
    updated_at: int
    def __init__(self, theme_key: _Optional[str] = ..., brief: _Optional[_Union[Brief, _Mapping]] = ..., created_at: _Optional[int] = ..., updated_at: _Optional[int] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ("id", "template_type", "ref_id", "status", "progress", "progress_stage", "progress_stage_number", "eligible_count", "target_count", "searched_count", "duplicate_count", "irrelevant_count", "error_summary", "cancel_requested", "created_at", "started_at", "completed_at", "updated_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_TYPE_FIELD_NUMBER: _ClassVar[int]
    REF_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_STAGE_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_STAGE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_COUNT_FIELD_NUMBER: _ClassVar[int]
    TARGET_COUNT_FIELD_NUMBER: _ClassVar[int]
    SEARCHED_COUNT_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_COUNT_FIELD_NUMBER: _ClassVar[int]
    IRRELEVANT_COUNT_FIELD_NUMBER: _ClassVar[int]
    ERROR_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    CANCEL_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    template_type: str
    ref_id: str
    status: str
    progress: str
    progress_stage: str
    progress_stage_number: int
    eligible_count: int
    target_count: int
    searched_count: int
    duplicate_count: int
    irrelevant_count: int
    error_summary: str
    cancel_requested: bool
    created_at: int
    started_at: int
    completed_at: int
    updated_at: int
    def __init__(self, id: _Optional[str] = ..., template_type: _Optional[str] = ..., ref_id: _Optional[str] = ..., status: _Optional[str] = ..., progress: _Optional[str] = ..., progress_stage: _Optional[str] = ..., progress_stage_number: _Optional[int] = ..., eligible_count: _Optional[int] = ..., target_count: _Optional[int] = ..., searched_count: _Optional[int] = ..., duplicate_count: _Optional[int] = ..., irrelevant_count: _Optional[int] = ..., error_summary: _Optional[str] = ..., cancel_requested: _Optional[bool] = ..., created_at: _Optional[int] = ..., started_at: _Optional[int] = ..., completed_at: _Optional[int] = ..., updated_at: _Optional[int] = ...) -> None: ...

class ScanRequest(_message.Message):
    __slots__ = ("brief", "idempotency_key")
    BRIEF_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    brief: Brief
    idempotency_key: str
    def __init__(self, brief: _Optional[_Union[Brief, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class ScanResponse(_message.Message):
    __slots__ = ("job", "run", "replayed")
    JOB_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    job: Job
    run: ScoutRun
    replayed: bool
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ..., run: _Optional[_Union[ScoutRun, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SuggestTermsRequest(_message.Message):
    __slots__ = ("intent",)
    INTENT_FIELD_NUMBER: _ClassVar[int]
    intent: str
    def __init__(self, intent: _Optional[str] = ...) -> None: ...

class SuggestTermsResponse(_message.Message):
    __slots__ = ("terms",)
    TERMS_FIELD_NUMBER: _ClassVar[int]
    terms: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, terms: _Optional[_Iterable[str]] = ...) -> None: ...

class ListRunsRequest(_message.Message):
    __slots__ = ("page", "brand_id", "mode")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    BRAND_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    page: PageRequest
    brand_id: str
    mode: str
    def __init__(self, page: _Optional[_Union[PageRequest, _Mapping]] = ..., brand_id: _Optional[str] = ..., mode: _Optional[str] = ...) -> None: ...

class ListRunsResponse(_message.Message):
    __slots__ = ("runs", "pagination")
    RUNS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    runs: _containers.RepeatedCompositeFieldContainer[ScoutRun]
    pagination: Pagination
    def __init__(self, runs: _Optional[_Iterable[_Union[ScoutRun, _Mapping]]] = ..., pagination: _Optional[_Union[Pagination, _Mapping]] = ...) -> None: ...

class GetRunRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class GetRunResponse(_message.Message):
    __slots__ = ("run",)
    RUN_FIELD_NUMBER: _ClassVar[int]
    run: ScoutRun
    def __init__(self, run: _Optional[_Union[ScoutRun, _Mapping]] = ...) -> None: ...

class ListRunPostsRequest(_message.Message):
    __slots__ = ("run_id", "page")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    page: PageRequest
    def __init__(self, run_id: _Optional[str] = ..., page: _Optional[_Union[PageRequest, _Mapping]] = ...) -> None: ...

class ListRunPostsResponse(_message.Message):
    __slots__ = ("run", "posts", "pagination")
    RUN_FIELD_NUMBER: _ClassVar[int]
    POSTS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    run: ScoutRun
    posts: _containers.RepeatedCompositeFieldContainer[ScoutPost]
    pagination: Pagination
    def __init__(self, run: _Optional[_Union[ScoutRun, _Mapping]] = ..., posts: _Optional[_Iterable[_Union[ScoutPost, _Mapping]]] = ..., pagination: _Optional[_Union[Pagination, _Mapping]] = ...) -> None: ...

class DeleteRunRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class DeleteRunResponse(_message.Message):
    __slots__ = ("ok",)
    OK_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    def __init__(self, ok: _Optional[bool] = ...) -> None: ...

class ListPostsRequest(_message.Message):
    __slots__ = ("page", "theme_key")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    page: PageRequest
    theme_key: str
    def __init__(self, page: _Optional[_Union[PageRequest, _Mapping]] = ..., theme_key: _Optional[str] = ...) -> None: ...

class ListPostsResponse(_message.Message):
    __slots__ = ("posts", "pagination")
    POSTS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    posts: _containers.RepeatedCompositeFieldContainer[ScoutPost]
    pagination: Pagination
    def __init__(self, posts: _Optional[_Iterable[_Union[ScoutPost, _Mapping]]] = ..., pagination: _Optional[_Union[Pagination, _Mapping]] = ...) -> None: ...

class DeleteThemeRequest(_message.Message):
    __slots__ = ("theme_key",)
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    theme_key: str
    def __init__(self, theme_key: _Optional[str] = ...) -> None: ...

class DeleteThemeResponse(_message.Message):
    __slots__ = ("ok", "deleted_runs", "deleted_posts")
    OK_FIELD_NUMBER: _ClassVar[int]
    DELETED_RUNS_FIELD_NUMBER: _ClassVar[int]
    DELETED_POSTS_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    deleted_runs: int
    deleted_posts: int
    def __init__(self, ok: _Optional[bool] = ..., deleted_runs: _Optional[int] = ..., deleted_posts: _Optional[int] = ...) -> None: ...

class ListHomeworkRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListHomeworkResponse(_message.Message):
    __slots__ = ("homework",)
    HOMEWORK_FIELD_NUMBER: _ClassVar[int]
    homework: _containers.RepeatedCompositeFieldContainer[Homework]
    def __init__(self, homework: _Optional[_Iterable[_Union[Homework, _Mapping]]] = ...) -> None: ...

class PutHomeworkRequest(_message.Message):
    __slots__ = ("brief",)
    BRIEF_FIELD_NUMBER: _ClassVar[int]
    brief: Brief
    def __init__(self, brief: _Optional[_Union[Brief, _Mapping]] = ...) -> None: ...

class PutHomeworkResponse(_message.Message):
    __slots__ = ("homework",)
    HOMEWORK_FIELD_NUMBER: _ClassVar[int]
    homework: Homework
    def __init__(self, homework: _Optional[_Union[Homework, _Mapping]] = ...) -> None: ...

class DeleteHomeworkRequest(_message.Message):
    __slots__ = ("theme_key",)
    THEME_KEY_FIELD_NUMBER: _ClassVar[int]
    theme_key: str
    def __init__(self, theme_key: _Optional[str] = ...) -> None: ...

class DeleteHomeworkResponse(_message.Message):
    __slots__ = ("ok",)
    OK_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    def __init__(self, ok: _Optional[bool] = ...) -> None: ...

class DraftPostRequest(_message.Message):
    __slots__ = ("post_id", "draft_text")
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    DRAFT_TEXT_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    draft_text: str
    def __init__(self, post_id: _Optional[str] = ..., draft_text: _Optional[str] = ...) -> None: ...

class SkipPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class PublishPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class PostActionResponse(_message.Message):
    __slots__ = ("post", "run")
    POST_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    post: ScoutPost
    run: ScoutRun
    def __init__(self, post: _Optional[_Union[ScoutPost, _Mapping]] = ..., run: _Optional[_Union[ScoutRun, _Mapping]] = ...) -> None: ...

class DeletePostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class DeletePostResponse(_message.Message):
    __slots__ = ("ok", "run")
    OK_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    run: ScoutRun
    def __init__(self, ok: _Optional[bool] = ..., run: _Optional[_Union[ScoutRun, _Mapping]] = ...) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class GetJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class CancelJobRequest(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class CancelJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...
