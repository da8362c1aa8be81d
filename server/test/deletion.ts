/** A delete's whole answer, as a partner sees it: its status and its body. */
export async function deletion(
  request: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<{ status: number; body: unknown }> {
  const { data, error, response } = await request;
  return { status: response.status, body: data ?? error };
}

/** What a delete of the record `id` answers (the contract's `DeletedResponse`). */
export const deletedAnswer = (id: string) => ({ status: 200, body: { success: true, data: { id, deleted: true } } });
