"""Writes the labeled evaluation set (dataset.jsonl) and the dev source's corpus from topics.py.

Every group gets the same treatment: its relevant posts and near misses, the shared noise, one
advertisement and one hashtag-only post that name its topic, a profile page (not a post), URL
variants of two relevant posts (the same post again), and posting times of which some are
missing. Output is deterministic: run it again after editing topics.py.

    .venv/bin/python services/scout/eval/build_dataset.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from topics import GROUPS, NOISE

HERE = Path(__file__).parent
DATASET = HERE / "dataset.jsonl"
CORPUS = HERE.parent / "scout" / "pipeline" / "sources" / "dev_corpus.jsonl"
NEWEST = datetime(2026, 8, 8, 12, 0, tzinfo=UTC)
AUTHORS = ["mei.lin.daily", "ahjun_tw", "kuo.notes", "tainan_foodie", "yuchen.run", "hsu.design", "lazycat.tw",
           "pinwei", "sunny_hsieh", "dev.ray", "chiayi_mama", "otaku.kai", "lin.writes", "wen_photo", "jay.chang"]


def shortcode(seed: str) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    return "C" + base64.urlsafe_b64encode(digest).decode()[:10]


def post_url(author: str, code: str, variant: int) -> str:
    return [
        f"https://www.threads.net/@{author}/post/{code}",
        f"https://threads.net/@{author}/post/{code}?xmt=AQGz{code[-4:]}&slof=1",
        f"https://www.threads.com/@{author}/post/{code}/",
        f"https://threads.com/@{author}/post/{code}#replies",
    ][variant % 4]


def posted_at(rng: random.Random, index: int) -> str | None:
    if index % 6 == 5:
        return None  # the source could not tell when it was posted
    moment = NEWEST - timedelta(hours=rng.randint(1, 24 * 540))
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def build_group(group: dict) -> dict:
    rng = random.Random(group["id"])
    items: list[tuple[str, bool, str]] = []
    items += [(t, True, "about the topic") for t in group["relevant"].split("\n")]
    items += [(t, False, "near miss: shares words, other topic") for t in group["distractors"].split("\n")]
    items += [(t, False, "noise") for t in NOISE]
    topic = group["terms"][0]
    items.append((f"{topic}周邊限時優惠，折扣碼現折兩百，加賴私訊下單", False, "advertisement naming the topic"))
    items.append(("#" + " #".join(topic.split()) + " #推薦 #分享", False, "hashtags only"))
    candidates = []
    for index, (body, relevant, why) in enumerate(items):
        author = AUTHORS[rng.randrange(len(AUTHORS))]
        candidate = {"url": post_url(author, shortcode(f"{group['id']}/{index}"), rng.randrange(4)),
                     "author": author, "text": body}
        stamp = posted_at(rng, index)
        if stamp:
            candidate["posted_at"] = stamp
        candidates.append({**candidate, "relevant": relevant, "why": why})
    relevant_ones = [c for c in candidates if c["relevant"]]
    for copy, original in enumerate(relevant_ones[:2]):
        code = original["url"].split("/post/")[1].split("/")[0].split("?")[0].split("#")[0]
        candidates.append({**original, "url": post_url(original["author"], code, copy + 1),
                           "why": "the same post under another URL"})
    profile = AUTHORS[rng.randrange(len(AUTHORS))]
    candidates.append({"url": f"https://www.threads.net/@{profile}", "author": profile,
                       "text": f"{profile} (@{profile}) • Threads：{topic}", "relevant": False,
                       "why": "a profile page, not a post"})
    rng.shuffle(candidates)
    return {"id": group["id"], "category": group["category"],
            "brief": {"intent": group["intent"], "terms": group["terms"], "mode": "topic",
                      "target_count": group["target"]},
            "candidates": candidates}


def main() -> None:
    groups = [build_group(g) for g in GROUPS]
    with DATASET.open("w", encoding="utf-8") as out:
        for group in groups:
            out.write(json.dumps(group, ensure_ascii=False) + "\n")
    seen: set[str] = set()
    with CORPUS.open("w", encoding="utf-8") as out:
        for group in groups:
            for candidate in group["candidates"]:
                key = candidate["url"] + candidate["text"]
                if key in seen or not candidate["url"]:
                    continue
                seen.add(key)
                post = {k: candidate[k] for k in ("url", "author", "text", "posted_at") if k in candidate}
                out.write(json.dumps(post, ensure_ascii=False) + "\n")
    print(f"{len(groups)} groups → {DATASET}; {len(seen)} posts → {CORPUS}")


if __name__ == "__main__":
    main()
