/** What every upload route shares. */
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * A refused upload whose body was not read to the end: the reply closes the connection
 * instead of the server reading (and the client sending) the rest of a body nobody wants.
 * Called in the upload handler's catch before rethrowing.
 */
export function closeIfUnread(req: FastifyRequest, reply: FastifyReply) {
  if (!req.raw.readableEnded) reply.header("connection", "close");
}
