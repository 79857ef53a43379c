/**
 * The text field every input schema uses: trimmed, not empty, bounded, and free of U+0000,
 * which PostgreSQL cannot store in text or jsonb (refused as bad input instead of failing in
 * the database).
 */
import { z } from "zod";

export const NUL_MESSAGE = "must not contain NUL characters (U+0000)";

export const hasNul = (value: string): boolean => value.includes("\u0000");

export const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .refine((value) => !hasNul(value), NUL_MESSAGE);
