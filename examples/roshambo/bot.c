/*
 * Example roshambo (Rock Paper Scissors) player for Code Colosseum, in C with the standard
 * library only. Reads the game stream on stdin, writes its moves on stdout.
 *
 *   cc -O2 -o bot examples/roshambo/bot.c
 *   coco connect MATCH_ID -- ./bot
 *
 * Strategy: play what beats the gesture the opponent has shown most often so far, at random
 * while there is no evidence (or a tie).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE_MAX_BYTES 4096

static const char *const GESTURES[3] = {"ROCK", "PAPER", "SCISSORS"};

/* Index of the gesture that beats gesture g: PAPER beats ROCK, SCISSORS PAPER, ROCK SCISSORS. */
static int counter(int g) { return (g + 1) % 3; }

/* Reads one line without its end of line; returns 0 at the end of the stream. */
static int read_line(char *buffer, size_t size) {
    if (fgets(buffer, (int)size, stdin) == NULL) return 0;
    size_t length = strlen(buffer);
    if (length > 0 && buffer[length - 1] != '\n' && !feof(stdin)) {
        /* Longer than the buffer: drop the rest of the line. */
        int c;
        while ((c = getchar()) != EOF && c != '\n') {
        }
    }
    while (length > 0 && (buffer[length - 1] == '\n' || buffer[length - 1] == '\r')) buffer[--length] = '\0';
    return 1;
}

static int gesture_index(const char *text) {
    for (int i = 0; i < 3; i++)
        if (strcmp(text, GESTURES[i]) == 0) return i;
    return -1;
}

static int choose(const int seen[3]) {
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (seen[i] > seen[best]) best = i;
    int ties = 0;
    for (int i = 0; i < 3; i++)
        if (seen[i] == seen[best]) ties++;
    if (seen[best] == 0 || ties > 1) return rand() % 3;
    return counter(best);
}

int main(void) {
    char me[LINE_MAX_BYTES], opponent[LINE_MAX_BYTES], line[LINE_MAX_BYTES];
    srand((unsigned)time(NULL) ^ (unsigned)clock());
    if (!read_line(me, sizeof me) || !read_line(opponent, sizeof opponent) || !read_line(line, sizeof line)) return 0;
    long rounds = strtol(line, NULL, 10);
    int seen[3] = {0, 0, 0};
    int won = 0, lost = 0;
    for (long round = 0; round < rounds; round++) {
        int mine = choose(seen);
        printf("%s\n", GESTURES[mine]);
        /* Flush after every line: coco only sees what leaves the buffer. */
        fflush(stdout);
        if (!read_line(line, sizeof line)) break;
        if (strcmp(line, "RETIRE") == 0) {
            fprintf(stderr, "%s retired\n", opponent);
            break;
        }
        int theirs = gesture_index(line);
        if (theirs < 0) continue;
        seen[theirs]++;
        if (counter(theirs) == mine) won++;
        else if (counter(mine) == theirs) lost++;
    }
    fprintf(stderr, "%s %d - %d %s\n", me, won, lost, opponent);
    return 0;
}
