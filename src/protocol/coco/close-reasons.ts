/**
 * The reason of the 1001 close a player gets when the node it is connected through stops while
 * its match runs on another node (a bridged seat): the match is not over, it goes on there and
 * scores the seat as a player that left. Shared by the server, which sends it, and `coco`, which
 * must then not report the server's shutdown as the match's result. At most 123 bytes, as a close
 * reason must be.
 */
export const MATCH_GOES_ON_ELSEWHERE = 'server shutdown; the match goes on without you on the node that runs it';
