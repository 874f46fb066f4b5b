/*
 * cc_infer.h: weights of sampled worlds from the other players' actions.
 *
 * A world is a sampled state (cc_game.sample_infoset) read back as the
 * deal it came from: its first-deal deck (cc_infer_world_deck) replayed
 * on the observer's record of the game (cc_infer_weight).  The weight of
 * a world is the probability of the other seats' past decisions under a
 * model of their play: the game's heuristic, softened (probability 1 - eps
 * spread over the heuristic's choices, eps over the other legal actions).
 * Nothing here reads a real state: the inputs are a sample and the
 * observer's own record (its observation tensors and its own actions).
 * Only the first deal of a game can be read back (later deals are not
 * stacked); cc_infer_supported says whether a state is in it.
 */
#ifndef CC_INFER_H
#define CC_INFER_H

#include "cardcore.h"

/* 1 if the game can be dealt from a deck and state is in its first deal
 * (no deal_index, or deal_index 0), else 0 (also for a NULL argument). */
int32_t cc_infer_supported(const cc_game *game, const void *state);

/* Bytes of scratch cc_infer_world_deck and cc_infer_weight need for a
 * record of nsteps actions; 0 for a NULL game or nsteps < 0. */
size_t cc_infer_scratch_size(const cc_game *game, const int32_t *params, int32_t nplayers,
                             int32_t nsteps);

/* The first-deal deck (deck_size card ids, top first) a sample was dealt
 * from, read from its log: an event of the deal (up to its last card read
 * from the deck) whose value is the card at a deck position (found by
 * dealing two reference decks from seed) gives that position its card; a card the log first names after the deal, and
 * the deal did not deal, was drawn from the stock later (the deck is read
 * top first): it goes to the next position the deal did not read, in the
 * log's order; the positions no event names get the cards left over,
 * ascending.  CC_OK, CC_E_ARG (a NULL argument, a game without init_deck,
 * a sample not in its first deal, a log that does not match the deal or
 * does not name a card the deal read), or the game's init_deck error.
 * scratch: cc_infer_scratch_size bytes (nsteps 0 is enough). */
int32_t cc_infer_world_deck(const cc_game *game, const int32_t *params, int32_t nplayers,
                            uint64_t seed, const void *sample, void *scratch, size_t cap,
                            uint8_t *deck);

/* The weight of sample as a world for observer: the deck of
 * cc_infer_world_deck is dealt from seed and replayed along the
 * observer's record, record[(t) * tensor_size ..] the observer's tensor
 * after t actions (t = 0 .. nsteps), actions[t] the observer's own action
 * at step t or -1 for another seat's.  At another seat's step every legal
 * action whose result shows the observer record[t + 1] is followed (a
 * hidden action branches); a branch counts if after nsteps actions every
 * seat observes what it observes in sample.  *weight gets the sum over
 * the branches of the product, over the other seats' steps, of
 * P(action): with m the heuristic's choices (distinct actions it picks
 * under ties rng seeds 0 .. ties - 1) among L legal actions, (1 - eps) / m
 * for a choice and eps / (L - m) for another (1 / m if L == m; 1 / L for a
 * game without a heuristic).  0 if no branch counts.  eps in [0, 1],
 * ties >= 1; max_nodes 0: no limit, else at most that many positions.
 * *nodes (may be NULL) gets the positions visited.  CC_OK, CC_E_ARG,
 * CC_E_CAPACITY (cap too small, or max_nodes reached). */
int32_t cc_infer_weight(const cc_game *game, const int32_t *params, int32_t nplayers, uint64_t seed,
                        const void *sample, int32_t observer, const int32_t *actions,
                        int32_t nsteps, const float *record, double eps, int32_t ties,
                        int64_t max_nodes, void *scratch, size_t cap, double *weight,
                        int64_t *nodes);

struct cc_net; /* cc_net.h (a header cffi reads after this one) */

/* cc_infer_weight with a network as the model of the other seats (cc_net.h,
 * made for this game, rules and players): at another seat's step, P(action)
 * is (1 - eps) times the softmax of the network's policy (over the legal
 * actions, from that seat's observation tensor) plus eps / L.  The same
 * arguments and results otherwise (ties is not used); CC_E_ARG also for a
 * network of other sizes. */
int32_t cc_infer_weight_model(const cc_game *game, const int32_t *params, int32_t nplayers,
                              uint64_t seed, const void *sample, int32_t observer,
                              const int32_t *actions, int32_t nsteps, const float *record,
                              const struct cc_net *model, double eps, int64_t max_nodes,
                              void *scratch, size_t cap, double *weight, int64_t *nodes);

/* A game's rule that cuts branches of a logged replay early: 0 if action
 * at state (step t of the observer's record, nsteps steps, record as for
 * cc_infer_weight) cannot lead to what sample logs; it must never cut a
 * branch that can. */
typedef int32_t (*cc_infer_allow)(const void *state, int32_t action, const void *sample,
                                  const float *record, int32_t t, int32_t nsteps, int32_t observer);

/* cc_infer_weight for a sample whose log names its whole history (a
 * world of cc_notakers_sample_history): a branch counts only if it logs,
 * event for event, what the sample logged (so the weight is that of the
 * sample's own history, not of every history that ends where it ends),
 * and a branch that reaches a position met last at the same step (a Save's
 * cards chosen in another order) takes its value from there.  model (may be
 * NULL: the softened heuristic) is a network model of the other seats as in
 * cc_infer_weight_model (ties then not used); allow (may be NULL) cuts
 * branches early. */
int32_t cc_infer_weight_logged(const cc_game *game, const int32_t *params, int32_t nplayers,
                               uint64_t seed, const void *sample, int32_t observer,
                               const int32_t *actions, int32_t nsteps, const float *record,
                               const struct cc_net *model, double eps, int32_t ties,
                               int64_t max_nodes, void *scratch, size_t cap, double *weight,
                               int64_t *nodes, cc_infer_allow allow);

#endif /* CC_INFER_H */
