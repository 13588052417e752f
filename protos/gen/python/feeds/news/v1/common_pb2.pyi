from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuthorSignature(_message.Message):
    __slots__ = ("id", "display_name", "avatar_url", "is_blocked")
    ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    AVATAR_URL_FIELD_NUMBER: _ClassVar[int]
    IS_BLOCKED_FIELD_NUMBER: _ClassVar[int]
    id: str
    display_name: str
    avatar_url: str
    is_blocked: bool
    def __init__(self, id: _Optional[str] = ..., display_name: _Optional[str] = ..., avatar_url: _Optional[str] = ..., is_blocked: _Optional[bool] = ...) -> None: ...

class CompanySignature(_message.Message):
    __slots__ = ("id", "name", "logo_url")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    logo_url: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., logo_url: _Optional[str] = ...) -> None: ...

class PostFeedItem(_message.Message):
    __slots__ = ("id", "title", "excerpt", "category_id", "published_at", "author", "company")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    EXCERPT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    excerpt: str
    category_id: str
    published_at: str
    author: AuthorSignature
    company: CompanySignature
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., excerpt: _Optional[str] = ..., category_id: _Optional[str] = ..., published_at: _Optional[str] = ..., author: _Optional[_Union[AuthorSignature, _Mapping]] = ..., company: _Optional[_Union[CompanySignature, _Mapping]] = ...) -> None: ...

class FeedPage(_message.Message):
    __slots__ = ("items", "next_cursor", "has_more")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PostFeedItem]
    next_cursor: str
    has_more: bool
    def __init__(self, items: _Optional[_Iterable[_Union[PostFeedItem, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: _Optional[bool] = ...) -> None: ...
