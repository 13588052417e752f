from feeds.news.v1 import common_pb2 as _common_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListSubscriptionFeedRequest(_message.Message):
    __slots__ = ("cursor", "limit", "category_id")
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    category_id: str
    def __init__(self, cursor: _Optional[str] = ..., limit: _Optional[int] = ..., category_id: _Optional[str] = ...) -> None: ...

class ListSubscriptionFeedResponse(_message.Message):
    __slots__ = ("page", "is_empty_subscriptions")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    IS_EMPTY_SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    page: _common_pb2.FeedPage
    is_empty_subscriptions: bool
    def __init__(self, page: _Optional[_Union[_common_pb2.FeedPage, _Mapping]] = ..., is_empty_subscriptions: _Optional[bool] = ...) -> None: ...

class ListGlobalFeedRequest(_message.Message):
    __slots__ = ("cursor", "limit", "category_id")
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    category_id: str
    def __init__(self, cursor: _Optional[str] = ..., limit: _Optional[int] = ..., category_id: _Optional[str] = ...) -> None: ...

class ListGlobalFeedResponse(_message.Message):
    __slots__ = ("page",)
    PAGE_FIELD_NUMBER: _ClassVar[int]
    page: _common_pb2.FeedPage
    def __init__(self, page: _Optional[_Union[_common_pb2.FeedPage, _Mapping]] = ...) -> None: ...

class GetPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class GetPostResponse(_message.Message):
    __slots__ = ("post", "body")
    POST_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    post: _common_pb2.PostFeedItem
    body: str
    def __init__(self, post: _Optional[_Union[_common_pb2.PostFeedItem, _Mapping]] = ..., body: _Optional[str] = ...) -> None: ...
