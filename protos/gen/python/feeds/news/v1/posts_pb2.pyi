from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Post(_message.Message):
    __slots__ = ("id", "author_user_id", "author_company_id", "category_id", "title", "body", "status", "published_at", "created_at", "updated_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_USER_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_COMPANY_ID_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    author_user_id: str
    author_company_id: str
    category_id: str
    title: str
    body: str
    status: str
    published_at: str
    created_at: str
    updated_at: str
    def __init__(self, id: _Optional[str] = ..., author_user_id: _Optional[str] = ..., author_company_id: _Optional[str] = ..., category_id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., status: _Optional[str] = ..., published_at: _Optional[str] = ..., created_at: _Optional[str] = ..., updated_at: _Optional[str] = ...) -> None: ...

class CreatePostRequest(_message.Message):
    __slots__ = ("title", "body", "category_id", "author_company_id")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_COMPANY_ID_FIELD_NUMBER: _ClassVar[int]
    title: str
    body: str
    category_id: str
    author_company_id: str
    def __init__(self, title: _Optional[str] = ..., body: _Optional[str] = ..., category_id: _Optional[str] = ..., author_company_id: _Optional[str] = ...) -> None: ...

class CreatePostResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class UpdatePostRequest(_message.Message):
    __slots__ = ("post_id", "title", "body", "category_id")
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    title: str
    body: str
    category_id: str
    def __init__(self, post_id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., category_id: _Optional[str] = ...) -> None: ...

class UpdatePostResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class PublishPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class PublishPostResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...

class UnpublishPostRequest(_message.Message):
    __slots__ = ("post_id",)
    POST_ID_FIELD_NUMBER: _ClassVar[int]
    post_id: str
    def __init__(self, post_id: _Optional[str] = ...) -> None: ...

class UnpublishPostResponse(_message.Message):
    __slots__ = ("post",)
    POST_FIELD_NUMBER: _ClassVar[int]
    post: Post
    def __init__(self, post: _Optional[_Union[Post, _Mapping]] = ...) -> None: ...
