from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UserUpserted(_message.Message):
    __slots__ = ("user_id", "display_name", "avatar_url", "blocked", "version")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    AVATAR_URL_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    display_name: str
    avatar_url: str
    blocked: bool
    version: int
    def __init__(self, user_id: _Optional[str] = ..., display_name: _Optional[str] = ..., avatar_url: _Optional[str] = ..., blocked: _Optional[bool] = ..., version: _Optional[int] = ...) -> None: ...

class UserBlocked(_message.Message):
    __slots__ = ("user_id", "version")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    version: int
    def __init__(self, user_id: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class CompanyUpserted(_message.Message):
    __slots__ = ("company_id", "name", "logo_url", "suspended", "version")
    COMPANY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    company_id: str
    name: str
    logo_url: str
    suspended: bool
    version: int
    def __init__(self, company_id: _Optional[str] = ..., name: _Optional[str] = ..., logo_url: _Optional[str] = ..., suspended: _Optional[bool] = ..., version: _Optional[int] = ...) -> None: ...

class CompanySuspended(_message.Message):
    __slots__ = ("company_id", "version")
    COMPANY_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    company_id: str
    version: int
    def __init__(self, company_id: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class IngestIdentityEventRequest(_message.Message):
    __slots__ = ("user_upserted", "user_blocked", "company_upserted", "company_suspended")
    USER_UPSERTED_FIELD_NUMBER: _ClassVar[int]
    USER_BLOCKED_FIELD_NUMBER: _ClassVar[int]
    COMPANY_UPSERTED_FIELD_NUMBER: _ClassVar[int]
    COMPANY_SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    user_upserted: UserUpserted
    user_blocked: UserBlocked
    company_upserted: CompanyUpserted
    company_suspended: CompanySuspended
    def __init__(self, user_upserted: _Optional[_Union[UserUpserted, _Mapping]] = ..., user_blocked: _Optional[_Union[UserBlocked, _Mapping]] = ..., company_upserted: _Optional[_Union[CompanyUpserted, _Mapping]] = ..., company_suspended: _Optional[_Union[CompanySuspended, _Mapping]] = ...) -> None: ...

class IngestIdentityEventResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
