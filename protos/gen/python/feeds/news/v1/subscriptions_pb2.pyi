from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SubscribeRequest(_message.Message):
    __slots__ = ("target_kind", "target_user_id", "target_company_id")
    TARGET_KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_USER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_COMPANY_ID_FIELD_NUMBER: _ClassVar[int]
    target_kind: str
    target_user_id: str
    target_company_id: str
    def __init__(self, target_kind: _Optional[str] = ..., target_user_id: _Optional[str] = ..., target_company_id: _Optional[str] = ...) -> None: ...

class SubscribeResponse(_message.Message):
    __slots__ = ("subscription_id", "target_kind", "target", "created")
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    subscription_id: str
    target_kind: str
    target: str
    created: bool
    def __init__(self, subscription_id: _Optional[str] = ..., target_kind: _Optional[str] = ..., target: _Optional[str] = ..., created: _Optional[bool] = ...) -> None: ...

class UnsubscribeRequest(_message.Message):
    __slots__ = ("subscription_id",)
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: str
    def __init__(self, subscription_id: _Optional[str] = ...) -> None: ...

class UnsubscribeResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Subscription(_message.Message):
    __slots__ = ("subscription_id", "target_kind", "target", "created_at")
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    subscription_id: str
    target_kind: str
    target: str
    created_at: str
    def __init__(self, subscription_id: _Optional[str] = ..., target_kind: _Optional[str] = ..., target: _Optional[str] = ..., created_at: _Optional[str] = ...) -> None: ...

class ListSubscriptionsRequest(_message.Message):
    __slots__ = ("cursor", "limit")
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    def __init__(self, cursor: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListSubscriptionsResponse(_message.Message):
    __slots__ = ("items", "next_cursor", "has_more")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Subscription]
    next_cursor: str
    has_more: bool
    def __init__(self, items: _Optional[_Iterable[_Union[Subscription, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: _Optional[bool] = ...) -> None: ...
