-- Issue 29, the sheet as the real one: each edition's completamento boxes (16 on the 2025 sheet; 2026/27 until the
-- ministry says otherwise) become edition data an admin corrects in the Edizioni tab. Additive: only formats
-- without the field get it, and the version bump makes every isolate re-read the editions.
UPDATE exam_editions SET format = json_set(format, '$.gapBoxes', 16), version = version + 1 WHERE json_extract(format, '$.gapBoxes') IS NULL;
