<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>CsvExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Impossible d’écrire %1 : %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::CheckpointTableModel</name>
    <message>
        <source>Remote</source>
        <translation>Distant</translation>
    </message>
    <message>
        <source>ETag %1</source>
        <translation>ETag %1</translation>
    </message>
    <message>
        <source>upload failed</source>
        <translation>échec de l’envoi</translation>
    </message>
    <message>
        <source>in S3</source>
        <translation>dans S3</translation>
    </message>
    <message>
        <source>uploading</source>
        <translation>envoi en cours</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>enregistré</translation>
    </message>
    <message>
        <source>writing</source>
        <translation>en écriture</translation>
    </message>
    <message>
        <source>deleting</source>
        <translation>suppression en cours</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>damaged (corrupt)</source>
        <translation>endommagé (corrompu)</translation>
    </message>
    <message>
        <source>damaged (file missing)</source>
        <translation>endommagé (fichier absent)</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>vérifié</translation>
    </message>
    <message>
        <source>damaged (checksum)</source>
        <translation>endommagé (somme de contrôle)</translation>
    </message>
    <message>
        <source>head</source>
        <translation>tête</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>épinglé</translation>
    </message>
    <message>
        <source>This checkpoint is damaged and cannot be resumed from.</source>
        <translation>Ce point de sauvegarde est endommagé : impossible d’en reprendre.</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Époque</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Pas</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Pas global</translation>
    </message>
    <message>
        <source>Saved at</source>
        <translation>Enregistré le</translation>
    </message>
    <message>
        <source>Train loss</source>
        <translation>Perte entr.</translation>
    </message>
    <message>
        <source>Train acc.</source>
        <translation>Préc. entr.</translation>
    </message>
    <message>
        <source>Val. loss</source>
        <translation>Perte valid.</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Préc. valid.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>Branche</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Tête</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Épinglé</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonPlot</name>
    <message>
        <source>Loss</source>
        <translation>Perte</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitude</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validation (par époque)</translation>
    </message>
    <message>
        <source>%1, branch %2</source>
        <translation>%1, branche %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonTableModel</name>
    <message>
        <source>epoch %1, global step %2, branch %3</source>
        <translation>époque %1, pas global %2, branche %3</translation>
    </message>
    <message>
        <source>epoch %1, global step %2</source>
        <translation>époque %1, pas global %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>Ce qui diffère</translation>
    </message>
    <message>
        <source>%1 differs</source>
        <translation>%1 diffère</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Pas</translation>
    </message>
    <message>
        <source>Final val. loss</source>
        <translation>Perte valid. finale</translation>
    </message>
    <message>
        <source>Final val. acc.</source>
        <translation>Préc. valid. finale</translation>
    </message>
    <message>
        <source>Best val. loss</source>
        <translation>Meilleure perte valid.</translation>
    </message>
    <message>
        <source>Best val. acc.</source>
        <translation>Meilleure préc. valid.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::EventMarkers</name>
    <message>
        <source>another device: other bits from here</source>
        <translation>autre appareil : autres bits à partir d&apos;ici</translation>
    </message>
    <message>
        <source>GPU throttled</source>
        <translation>GPU bridé</translation>
    </message>
    <message>
        <source>low disk</source>
        <translation>disque presque plein</translation>
    </message>
    <message>
        <source>worker lost</source>
        <translation>worker perdu</translation>
    </message>
    <message>
        <source>worker %1 lost</source>
        <translation>worker %1 perdu</translation>
    </message>
    <message>
        <source>worker %1 lost → job restarted from checkpoint #%2</source>
        <translation>worker %1 perdu → tâche relancée depuis la sauvegarde n° %2</translation>
    </message>
    <message>
        <source>worker lost → job restarted from checkpoint #%1</source>
        <translation>worker perdu → tâche relancée depuis la sauvegarde n° %1</translation>
    </message>
    <message>
        <source>worker lost → job restarted</source>
        <translation>worker perdu → tâche relancée</translation>
    </message>
    <message>
        <source>diverged (NaN)</source>
        <translation>divergé (NaN)</translation>
    </message>
    <message>
        <source>crash</source>
        <translation>plantage</translation>
    </message>
    <message>
        <source>preemption notice</source>
        <translation>avis de préemption</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>préempté</translation>
    </message>
    <message>
        <source>resume</source>
        <translation>reprise</translation>
    </message>
    <message>
        <source>rollback</source>
        <translation>retour arrière</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>arrêt</translation>
    </message>
    <message>
        <source>error</source>
        <translation>erreur</translation>
    </message>
    <message>
        <source>finish</source>
        <translation>fin</translation>
    </message>
    <message>
        <source>crash armed</source>
        <translation>plantage armé</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FaultTolerancePanel</name>
    <message>
        <source>%1 useful steps (%2 worker-hours)</source>
        <translation>%1 pas utiles (%2 heures-workers)</translation>
    </message>
    <message>
        <source>Useful steps divided by the wall time of every session times its workers.</source>
        <translation>Pas utiles divisés par la durée de chaque session multipliée par ses workers.</translation>
    </message>
    <message>
        <source>Goodput per worker-hour</source>
        <translation>Goodput par heure-worker</translation>
    </message>
    <message>
        <source>Lost steps times the time per step times the workers that computed them: in a data-parallel job one lost worker costs every worker&apos;s work since the checkpoint.</source>
        <translation>Pas perdus × temps par pas × workers qui les ont calculés : dans une tâche parallèle, un worker perdu coûte le travail de tous les workers depuis le point de sauvegarde.</translation>
    </message>
    <message>
        <source>Worker time lost</source>
        <translation>Temps de workers perdu</translation>
    </message>
    <message>
        <source>Times torchrun restarted every worker of the job from its last checkpoint after one was lost.</source>
        <translation>Nombre de fois où torchrun a relancé tous les workers de la tâche depuis son dernier point de sauvegarde après la perte de l’un d’eux.</translation>
    </message>
    <message>
        <source>Job restarts</source>
        <translation>Relances de la tâche</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>What checkpointing and failures cost</source>
        <translation>Ce que coûtent les sauvegardes et les pannes</translation>
    </message>
    <message>
        <source>Checkpoints written</source>
        <translation>Points de sauvegarde écrits</translation>
    </message>
    <message>
        <source>Interruptions</source>
        <translation>Interruptions</translation>
    </message>
    <message>
        <source>Sessions that ended by a crash, a preemption, a kill or a failure.</source>
        <translation>Sessions terminées par un plantage, une préemption, un kill ou un échec.</translation>
    </message>
    <message>
        <source>Steps lost</source>
        <translation>Pas perdus</translation>
    </message>
    <message>
        <source>Steps an interruption threw away: computed after the checkpoint it left to resume from.</source>
        <translation>Pas qu’une interruption a perdus : calculés après la sauvegarde d’où elle permettait de reprendre.</translation>
    </message>
    <message>
        <source>Steps recomputed</source>
        <translation>Pas recalculés</translation>
    </message>
    <message>
        <source>Of the lost steps, those trained (or replayed) again.</source>
        <translation>Parmi les pas perdus, ceux entraînés (ou rejoués) à nouveau.</translation>
    </message>
    <message>
        <source>Recomputed by choice</source>
        <translation>Recalculés par choix</translation>
    </message>
    <message>
        <source>Steps given up by resuming at an earlier position (a rollback): a choice, not lost work.</source>
        <translation>Pas abandonnés en reprenant à une position antérieure (un retour en arrière) : un choix, pas du travail perdu.</translation>
    </message>
    <message>
        <source>Wall time lost</source>
        <translation>Temps réel perdu</translation>
    </message>
    <message>
        <source>Lost steps times the measured time per step.</source>
        <translation>Pas perdus multipliés par le temps mesuré par pas.</translation>
    </message>
    <message>
        <source>Downtime</source>
        <translation>Temps d’arrêt</translation>
    </message>
    <message>
        <source>Time between an interruption and the next session: waiting to resume, not lost work.</source>
        <translation>Temps entre une interruption et la session suivante : de l’attente, pas du travail perdu.</translation>
    </message>
    <message>
        <source>no training yet</source>
        <translation>aucun entraînement pour l’instant</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>Goodput</translation>
    </message>
    <message>
        <source>Useful steps (the global step reached on the current branch) divided by all steps computed.</source>
        <translation>Pas utiles (le pas global atteint sur la branche courante) divisés par tous les pas calculés.</translation>
    </message>
    <message>
        <source>Best checkpoint interval (Young/Daly)</source>
        <translation>Meilleur intervalle de sauvegarde (Young/Daly)</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Mean time between failures to assume when none was observed.</source>
        <translation>Temps moyen entre pannes à supposer quand aucune n’a été observée.</translation>
    </message>
    <message>
        <source>Use the assumed MTBF even when failures were observed</source>
        <translation>Utiliser le MTBF supposé même si des pannes ont été observées</translation>
    </message>
    <message>
        <source>Assumed MTBF</source>
        <translation>MTBF supposé</translation>
    </message>
    <message>
        <source>Checkpoint cost C</source>
        <translation>Coût d’une sauvegarde C</translation>
    </message>
    <message>
        <source>Mean write time of one checkpoint, measured.</source>
        <translation>Temps moyen mesuré pour écrire une sauvegarde.</translation>
    </message>
    <message>
        <source>MTBF M</source>
        <translation>MTBF M</translation>
    </message>
    <message>
        <source>Observed: instance time divided by interruptions; otherwise the assumed value.</source>
        <translation>Observé : temps d’instance divisé par le nombre d’interruptions ; sinon la valeur supposée.</translation>
    </message>
    <message>
        <source>Optimal interval √(2·C·M)</source>
        <translation>Intervalle optimal √(2·C·M)</translation>
    </message>
    <message>
        <source>Checkpointing this often minimizes the expected time lost to checkpoints plus recomputation.</source>
        <translation>Sauvegarder à ce rythme minimise le temps perdu attendu en sauvegardes et en recalcul.</translation>
    </message>
    <message>
        <source>Spot pricing estimate</source>
        <translation>Estimation du prix spot</translation>
    </message>
    <message>
        <source>How much cheaper an interruptible (spot) instance is than on-demand.</source>
        <translation>De combien une instance interruptible (spot) est moins chère qu’une instance à la demande.</translation>
    </message>
    <message>
        <source>Spot discount</source>
        <translation>Remise spot</translation>
    </message>
    <message>
        <source>Training seconds</source>
        <translation>Secondes d’entraînement</translation>
    </message>
    <message>
        <source>Wall time of all sessions, including lost work.</source>
        <translation>Temps réel de toutes les sessions, travail perdu compris.</translation>
    </message>
    <message>
        <source>Billable seconds</source>
        <translation>Secondes facturables</translation>
    </message>
    <message>
        <source>Training seconds at the spot discount.</source>
        <translation>Secondes d’entraînement avec la remise spot.</translation>
    </message>
    <message>
        <source>Savings</source>
        <translation>Économies</translation>
    </message>
    <message>
        <source>Compared with on-demand, after paying for the lost work.</source>
        <translation>Par rapport à la demande, travail perdu payé.</translation>
    </message>
    <message>
        <source>%1 (%2 of compute time)</source>
        <translation>%1 (%2 du temps de calcul)</translation>
    </message>
    <message>
        <source>%1 (%2 useful of %3 computed)</source>
        <translation>%1 (%2 utiles sur %3 calculés)</translation>
    </message>
    <message>
        <source>%1 (observed)</source>
        <translation>%1 (observé)</translation>
    </message>
    <message>
        <source>%1 (assumed)</source>
        <translation>%1 (supposé)</translation>
    </message>
    <message>
        <source>%1 ≈ every %2 steps</source>
        <translation>%1 ≈ tous les %2 pas</translation>
    </message>
    <message>
        <source>needs a measured checkpoint</source>
        <translation>nécessite une sauvegarde mesurée</translation>
    </message>
    <message>
        <source>%1 (%2 s)</source>
        <translation>%1 (%2 s)</translation>
    </message>
    <message>
        <source>Saves committed to the registry, in every session of this run; and those due while the previous one was still being written that were skipped or taken late (the run&apos;s async policy).</source>
        <translation>Sauvegardes validées dans le registre, sur toutes les sessions de cette exécution ; et celles dues pendant que la précédente était encore en écriture, sautées ou faites en retard (la politique asynchrone de l’exécution).</translation>
    </message>
    <message>
        <source>%1 (%2 skipped, %3 taken late)</source>
        <translation>%1 (%2 sautées, %3 faites en retard)</translation>
    </message>
    <message>
        <source>Checkpoint writing</source>
        <translation>Écriture des points de sauvegarde</translation>
    </message>
    <message>
        <source>Total time the background I/O thread spent writing, hashing and committing checkpoints, and its share of the time spent computing steps. Training goes on meanwhile.</source>
        <translation>Temps total passé par le fil d’E/S en arrière-plan à écrire, hacher et valider les points de sauvegarde, et sa part du temps de calcul des pas. L’entraînement continue pendant ce temps.</translation>
    </message>
    <message>
        <source>Training held up</source>
        <translation>Entraînement retenu</translation>
    </message>
    <message>
        <source>Total time the training thread waited for checkpoints: to take each snapshot, and, with the &apos;wait&apos; policy, for the previous save to be written. This is what checkpointing cost the training directly.</source>
        <translation>Temps total pendant lequel le fil d’entraînement a attendu les points de sauvegarde : pour prendre chaque instantané et, avec la politique « wait », pour que l’écriture de la sauvegarde précédente soit terminée. C’est ce que les points de sauvegarde ont coûté directement à l’entraînement.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FirstLaunchHint</name>
    <message>
        <source>Start a training run with New run… (%1), or watch a one-minute demo: a run, a crash, a rollback.</source>
        <translation>Lancez un entraînement avec Nouvelle exécution… (%1), ou regardez une démo d’une minute : une exécution, un plantage, un retour arrière.</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>Nouvelle exécution…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Lancer la démo</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Pour commencer</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MainWindow</name>
    <message>
        <source>System</source>
        <translation>Système</translation>
    </message>
    <message>
        <source>Download runs synced to S3-compatible storage (s3://bucket/prefix) into this home, to resume them here</source>
        <translation>Télécharger dans ce dossier des exécutions synchronisées vers un stockage compatible S3 (s3://bucket/prefixe), pour les reprendre ici</translation>
    </message>
    <message>
        <source>Open runs from remote storage…</source>
        <translation>Ouvrir des exécutions depuis un stockage distant…</translation>
    </message>
    <message>
        <source>Open runs from remote storage</source>
        <translation>Ouvrir des exécutions depuis un stockage distant</translation>
    </message>
    <message>
        <source>Runs under this address are downloaded into this window&apos;s home, every file checked against its SHA-256 first:</source>
        <translation>Les exécutions sous cette adresse sont téléchargées dans le dossier de cette fenêtre, chaque fichier vérifié d’abord par son SHA-256 :</translation>
    </message>
    <message>
        <source>Savepoint — %1</source>
        <translation>Savepoint — %1</translation>
    </message>
    <message>
        <source>Recovery: %1</source>
        <translation>Récupération : %1</translation>
    </message>
    <message>
        <source>Cannot open the registry in %1: %2</source>
        <translation>Impossible d’ouvrir le registre dans %1 : %2</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Exécutions</translation>
    </message>
    <message>
        <source>Fault tolerance</source>
        <translation>Tolérance aux pannes</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Points de sauvegarde</translation>
    </message>
    <message>
        <source>Checkpoints · %1</source>
        <translation>Points de sauvegarde · %1</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Événements</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>Axe X :</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Pas global</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Époque</translation>
    </message>
    <message>
        <source>Wall-clock time</source>
        <translation>Temps réel</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Lissage :</translation>
    </message>
    <message>
        <source>Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it.</source>
        <translation>Poids de la moyenne mobile exponentielle corrigée du biais ; les pas bruts restent visibles derrière.</translation>
    </message>
    <message>
        <source>Log scale for loss</source>
        <translation>Échelle log. pour la perte</translation>
    </message>
    <message>
        <source>Show raw steps</source>
        <translation>Afficher les pas bruts</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Réinitialiser le zoom</translation>
    </message>
    <message>
        <source>Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom.</source>
        <translation>Suivre à nouveau toutes les données (ou : double-clic sur le graphique). Glisser pour déplacer, molette pour zoomer.</translation>
    </message>
    <message>
        <source>Right-click the plot to resume from a step</source>
        <translation>Clic droit sur le graphique pour reprendre à un pas</translation>
    </message>
    <message>
        <source>Resume from here</source>
        <translation>Reprendre d’ici</translation>
    </message>
    <message>
        <source>Continue training from the selected checkpoint; older than the head, this is a rollback onto a new branch.</source>
        <translation>Poursuivre l’entraînement depuis la sauvegarde choisie ; plus ancienne que la tête, c’est un retour arrière sur une nouvelle branche.</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <source>Pin / unpin</source>
        <translation>Épingler / désépingler</translation>
    </message>
    <message>
        <source>Pinned checkpoints are never deleted by retention.</source>
        <translation>Les sauvegardes épinglées ne sont jamais supprimées par la rétention.</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Delete the file (never the head).</source>
        <translation>Supprimer le fichier (jamais la tête).</translation>
    </message>
    <message>
        <source>Show file</source>
        <translation>Afficher le fichier</translation>
    </message>
    <message>
        <source>Open the folder holding the checkpoint file.</source>
        <translation>Ouvrir le dossier contenant le fichier de sauvegarde.</translation>
    </message>
    <message>
        <source>Show deleted</source>
        <translation>Afficher les supprimées</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>Nouvelle exécution…</translation>
    </message>
    <message>
        <source>Configure and start a new training run</source>
        <translation>Configurer et lancer un nouvel entraînement</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Pause or continue training at the next step</source>
        <translation>Mettre en pause ou reprendre l’entraînement au pas suivant</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Graceful stop: write a checkpoint, then stop</source>
        <translation>Arrêt propre : écrire une sauvegarde, puis arrêter</translation>
    </message>
    <message>
        <source>Checkpoint now</source>
        <translation>Sauvegarder maintenant</translation>
    </message>
    <message>
        <source>Write a checkpoint at the next step</source>
        <translation>Écrire une sauvegarde au pas suivant</translation>
    </message>
    <message>
        <source>Simulate crash</source>
        <translation>Simuler un plantage</translation>
    </message>
    <message>
        <source>Stop dead, as if the machine died: nothing more is saved</source>
        <translation>Arrêt net, comme si la machine mourait : plus rien n’est enregistré</translation>
    </message>
    <message>
        <source>Crash at step</source>
        <translation>Planter au pas</translation>
    </message>
    <message>
        <source>Simulate a crash after the global step set beside</source>
        <translation>Simuler un plantage après le pas global indiqué à côté</translation>
    </message>
    <message>
        <source>Simulate preemption</source>
        <translation>Simuler une préemption</translation>
    </message>
    <message>
        <source>A preemption notice: emergency checkpoint within the grace period, then stop</source>
        <translation>Un avis de préemption : sauvegarde d’urgence dans le délai de grâce, puis arrêt</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Resume the selected run from its latest usable checkpoint</source>
        <translation>Reprendre l’exécution choisie depuis sa dernière sauvegarde utilisable</translation>
    </message>
    <message>
        <source>Resume at</source>
        <translation>Reprendre à</translation>
    </message>
    <message>
        <source>Resume (or roll back) at the epoch and step set beside</source>
        <translation>Reprendre (ou revenir en arrière) à l’époque et au pas indiqués à côté</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>Exporter le graphique…</translation>
    </message>
    <message>
        <source>Save the plots as PNG or PDF</source>
        <translation>Enregistrer les graphiques en PNG ou PDF</translation>
    </message>
    <message>
        <source>Export metrics as CSV…</source>
        <translation>Exporter les métriques en CSV…</translation>
    </message>
    <message>
        <source>Every point, raw and smoothed</source>
        <translation>Tous les points, bruts et lissés</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entraînement</translation>
    </message>
    <message>
        <source>Global step after which the simulated crash happens</source>
        <translation>Pas global après lequel survient le plantage simulé</translation>
    </message>
    <message>
        <source>grace </source>
        <translation>grâce </translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Grace period of the preemption notice (applies to the next start or resume)</source>
        <translation>Délai de grâce de l’avis de préemption (s’applique au prochain lancement ou à la prochaine reprise)</translation>
    </message>
    <message>
        <source>epoch </source>
        <translation>époque </translation>
    </message>
    <message>
        <source>step </source>
        <translation>pas </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>&amp;Entraînement</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Paramètres</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>About Savepoint</source>
        <translation>À propos de Savepoint</translation>
    </message>
    <message>
        <source>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Watch, interrupt, roll back and resume neural-network training.&lt;br&gt;Home: %2</source>
        <translation>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Suivre, interrompre, revenir en arrière et reprendre l’entraînement de réseaux de neurones.&lt;br&gt;Dossier : %2</translation>
    </message>
    <message>
        <source>The language changes the next time Savepoint starts.</source>
        <translation>La langue changera au prochain démarrage de Savepoint.</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>Un entraînement est en cours</translation>
    </message>
    <message>
        <source>Stop training gracefully (write a checkpoint) and quit?</source>
        <translation>Arrêter proprement l’entraînement (écrire une sauvegarde) et quitter ?</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuer</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Exporter le graphique</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>Image PNG (*.png);;Document PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Plot saved to %1</source>
        <translation>Graphique enregistré dans %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Impossible d’écrire %1</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>Exporter les métriques</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Metrics saved to %1</source>
        <translation>Métriques enregistrées dans %1</translation>
    </message>
    <message>
        <source>Check the file&apos;s size, footer and checksum (built from SHA-256s; see the README&apos;s file format).</source>
        <translation>Vérifie la taille du fichier, son pied et sa somme de contrôle (faite de SHA-256 ; voir le format de fichier dans le README).</translation>
    </message>
    <message>
        <source>Start…</source>
        <translation>Démarrer…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Lancer la démo</translation>
    </message>
    <message>
        <source>A one-minute synthetic run: a crash, then a rollback</source>
        <translation>Une exécution synthétique d’une minute : un plantage, puis un retour arrière</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positions</translation>
    </message>
    <message>
        <source>Metrics plots</source>
        <translation>Graphiques des métriques</translation>
    </message>
    <message>
        <source>Loss plot</source>
        <translation>Graphique de la perte</translation>
    </message>
    <message>
        <source>Accuracy plot</source>
        <translation>Graphique de la précision</translation>
    </message>
    <message>
        <source>Epoch to resume at</source>
        <translation>Époque où reprendre</translation>
    </message>
    <message>
        <source>Step to resume at (the last completed step of that epoch)</source>
        <translation>Pas où reprendre (le dernier pas terminé de cette époque)</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>Une exécution s’entraîne déjà dans cette fenêtre ; arrêtez-la d’abord.</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Ctrl- or Shift-click more runs to compare their curves and settings.</source>
        <translation>Ctrl- ou Maj-clic sur d’autres exécutions pour comparer leurs courbes et leurs réglages.</translation>
    </message>
    <message>
        <source>Kill a worker…</source>
        <translation>Tuer un worker…</translation>
    </message>
    <message>
        <source>SIGKILL one worker of the data-parallel job, as if its machine were lost</source>
        <translation>SIGKILL à un worker de la tâche parallèle, comme si sa machine était perdue</translation>
    </message>
    <message>
        <source>A data-parallel job is running</source>
        <translation>Une tâche parallèle est en cours</translation>
    </message>
    <message>
        <source>Send it the preemption notice (every worker writes one checkpoint) and quit?</source>
        <translation>Lui envoyer l’avis de préemption (chaque worker écrit un point de sauvegarde) et quitter ?</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MetricsPlot</name>
    <message>
        <source>%1 · lr %2</source>
        <translation>%1 · lr %2</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perte</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitude</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>sauvegarde</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Pas global</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Époque</translation>
    </message>
    <message>
        <source>Wall-clock time since the run started (h:m:s)</source>
        <translation>Temps réel depuis le début de l’exécution (h:m:s)</translation>
    </message>
    <message>
        <source>branch %1 (abandoned)</source>
        <translation>branche %1 (abandonnée)</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>branche %1</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validation (par époque)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1, abandoned&lt;/b&gt; (lost work, recomputed later)</source>
        <translation>&lt;b&gt;Branche %1, abandonnée&lt;/b&gt; (travail perdu, recalculé ensuite)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Branche %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Global step %1 (epoch %2, step %3)</source>
        <translation>Pas global %1 (époque %2, pas %3)</translation>
    </message>
    <message>
        <source>Loss %1 (smoothed %2)</source>
        <translation>Perte %1 (lissée %2)</translation>
    </message>
    <message>
        <source>Accuracy %1 (smoothed %2)</source>
        <translation>Exactitude %1 (lissée %2)</translation>
    </message>
    <message>
        <source>Time since start %1</source>
        <translation>Temps depuis le début %1</translation>
    </message>
    <message>
        <source>Validation: loss %1, accuracy %2</source>
        <translation>Validation : perte %1, exactitude %2</translation>
    </message>
    <message>
        <source>Resume from here: epoch %1, step %2 (global step %3)</source>
        <translation>Reprendre d’ici : époque %1, pas %2 (pas global %3)</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Réinitialiser le zoom</translation>
    </message>
    <message>
        <source>Savepoint metrics</source>
        <translation>Métriques Savepoint</translation>
    </message>
    <message>
        <source>lost work (recomputed)</source>
        <translation>travail perdu (recalculé)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::NewRunDialog</name>
    <message>
        <source>No GPU can train here; choose “cpu” or “auto”</source>
        <translation>Aucun GPU ne peut entraîner ici ; choisissez « cpu » ou « auto »</translation>
    </message>
    <message>
        <source>no GPU: %1</source>
        <translation>pas de GPU : %1</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU : %1</translation>
    </message>
    <message>
        <source>Enter the storage&apos;s address, such as s3://my-bucket/checkpoints</source>
        <translation>Saisissez l’adresse du stockage, par exemple s3://my-bucket/checkpoints</translation>
    </message>
    <message>
        <source>Remote storage</source>
        <translation>Stockage distant</translation>
    </message>
    <message>
        <source>Remote storage is for a run trained in this window (Workers 1), not yet for a job</source>
        <translation>Le stockage distant vaut pour une exécution entraînée dans cette fenêtre (Workers 1), pas encore pour une tâche</translation>
    </message>
    <message>
        <source>Each checkpoint is also uploaded there in the background (AWS S3, MinIO, Ceph, Swift), with the credentials of AWS_ACCESS_KEY_ID or ~/.aws/credentials and AWS_ENDPOINT_URL; File ▸ Open runs from remote storage… brings the run back on another machine.</source>
        <translation>Chaque sauvegarde y est aussi envoyée en arrière-plan (AWS S3, MinIO, Ceph, Swift), avec les identifiants de AWS_ACCESS_KEY_ID ou ~/.aws/credentials et AWS_ENDPOINT_URL ; Fichier ▸ Ouvrir des exécutions depuis un stockage distant… ramène l’exécution sur une autre machine.</translation>
    </message>
    <message>
        <source>optional: s3://bucket/prefix</source>
        <translation>facultatif : s3://bucket/prefixe</translation>
    </message>
    <message>
        <source>A job of several workers waits for each checkpoint: choose “wait”</source>
        <translation>Une tâche à plusieurs workers attend chaque point de sauvegarde : choisissez « wait »</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>Fichier…</translation>
    </message>
    <message>
        <source>Tensors saved with torch.save</source>
        <translation>Tenseurs enregistrés avec torch.save</translation>
    </message>
    <message>
        <source>PyTorch files (*.pt *.pth);;All files (*)</source>
        <translation>Fichiers PyTorch (*.pt *.pth);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>TorchScript model</source>
        <translation>Modèle TorchScript</translation>
    </message>
    <message>
        <source>TorchScript files (*.pt *.pth);;All files (*)</source>
        <translation>Fichiers TorchScript (*.pt *.pth);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>mlp: one hidden layer; dnn: three; cnn: convolutional; or your own TorchScript file (torch.jit.script(model).save(&quot;model.pt&quot;)).</source>
        <translation>mlp : une couche cachée ; dnn : trois ; cnn : convolutif ; ou votre propre fichier TorchScript (torch.jit.script(model).save(&quot;model.pt&quot;)).</translation>
    </message>
    <message>
        <source>ce: cross-entropy on class labels; mse: mean squared error on float targets (TorchScript models).</source>
        <translation>ce : entropie croisée sur des étiquettes de classe ; mse : erreur quadratique moyenne sur des cibles réelles (modèles TorchScript).</translation>
    </message>
    <message>
        <source>Check model and data</source>
        <translation>Vérifier le modèle et les données</translation>
    </message>
    <message>
        <source>Loads the model and the data and runs one batch forward: shapes, labels, parameters.</source>
        <translation>Charge le modèle et les données et fait passer un lot : formes, étiquettes, paramètres.</translation>
    </message>
    <message>
        <source>Press “Check model and data” first: a model or data file must pass the dry run</source>
        <translation>Cliquez d’abord sur « Vérifier le modèle et les données » : un fichier de modèle ou de données doit passer l’essai à blanc</translation>
    </message>
    <message>
        <source>Dry run passed:</source>
        <translation>Essai à blanc réussi :</translation>
    </message>
    <message>
        <source>Dry run failed: %1</source>
        <translation>Essai à blanc échoué : %1</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perte</translation>
    </message>
    <message>
        <source>%1: no such file (expected a file written by torch.save)</source>
        <translation>%1 : fichier introuvable (attendu : un fichier écrit par torch.save)</translation>
    </message>
    <message>
        <source>Expected %1; found %2.</source>
        <translation>Attendu : %1 ; trouvé : %2.</translation>
    </message>
    <message>
        <source>Fashion-MNIST is not installed in %1 (install Debian&apos;s dataset-fashion-mnist, set SAVEPOINT_FASHION_MNIST_DIR, or choose “synthetic”)</source>
        <translation>Fashion-MNIST n’est pas installé dans %1 (installez le paquet Debian dataset-fashion-mnist, définissez SAVEPOINT_FASHION_MNIST_DIR ou choisissez « synthetic »)</translation>
    </message>
    <message>
        <source>Choose “synthetic”, “fashion-mnist” or a directory with MNIST-format files</source>
        <translation>Choisissez « synthetic », « fashion-mnist » ou un dossier de fichiers au format MNIST</translation>
    </message>
    <message>
        <source>%1 is not a directory (expected “synthetic”, “fashion-mnist” or a directory with MNIST-format files)</source>
        <translation>%1 n’est pas un dossier (attendu : « synthetic », « fashion-mnist » ou un dossier de fichiers au format MNIST)</translation>
    </message>
    <message>
        <source>%1 has no %2 (or %2.gz)</source>
        <translation>%1 ne contient pas %2 (ni %2.gz)</translation>
    </message>
    <message>
        <source>New training run</source>
        <translation>Nouvel entraînement</translation>
    </message>
    <message>
        <source>Directory…</source>
        <translation>Dossier…</translation>
    </message>
    <message>
        <source>MNIST-format dataset directory</source>
        <translation>Dossier du jeu de données au format MNIST</translation>
    </message>
    <message>
        <source>one full pass</source>
        <translation>un passage complet</translation>
    </message>
    <message>
        <source>default</source>
        <translation>par défaut</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Nom de l’exécution</translation>
    </message>
    <message>
        <source>Letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; becomes a folder name.</source>
        <translation>Lettres, chiffres, &apos;.&apos;, &apos;_&apos; et &apos;-&apos; ; devient un nom de dossier.</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Jeu de données</translation>
    </message>
    <message>
        <source>“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files.</source>
        <translation>« synthetic » (généré, sans téléchargement), « fashion-mnist » ou un dossier contenant les quatre fichiers au format MNIST.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Époques</translation>
    </message>
    <message>
        <source>Steps per epoch</source>
        <translation>Pas par époque</translation>
    </message>
    <message>
        <source>0: one full pass over the training split.</source>
        <translation>0 : un passage complet sur les données d’entraînement.</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Taille du lot</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Taux d’apprentissage</translation>
    </message>
    <message>
        <source>Greater than 0 and at most 10, e.g. 0.001 or 1e-3.</source>
        <translation>Supérieur à 0 et au plus 10, p. ex. 0.001 ou 1e-3.</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimiseur</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Graine</translation>
    </message>
    <message>
        <source>Same seed, same data order and initial weights.</source>
        <translation>Même graine, même ordre des données et mêmes poids initiaux.</translation>
    </message>
    <message>
        <source>Save every</source>
        <translation>Sauvegarder tous les</translation>
    </message>
    <message>
        <source>“epoch”, or a number of steps.</source>
        <translation>« epoch » ou un nombre de pas.</translation>
    </message>
    <message>
        <source>Keep newest</source>
        <translation>Garder les plus récentes</translation>
    </message>
    <message>
        <source>Older checkpoints are deleted (best, head and pinned ones are kept).</source>
        <translation>Les sauvegardes plus anciennes sont supprimées (la meilleure, la tête et les épinglées sont gardées).</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Périphérique</translation>
    </message>
    <message>
        <source>auto: the GPU when LibTorch sees one, else the CPU.</source>
        <translation>auto : le GPU si LibTorch en voit un, sinon le CPU.</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>Fils CPU</translation>
    </message>
    <message>
        <source>When a save is still writing</source>
        <translation>Si une sauvegarde est encore en écriture</translation>
    </message>
    <message>
        <source>wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that one is committed.</source>
        <translation>wait : l’entraînement l’attend ; skip : cette sauvegarde est sautée ; defer : cette sauvegarde est faite dès que la précédente est validée.</translation>
    </message>
    <message>
        <source>Start training</source>
        <translation>Lancer l’entraînement</translation>
    </message>
    <message>
        <source>Use 1 to 64 characters from A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;.&apos;</source>
        <translation>Utilisez 1 à 64 caractères parmi A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; et &apos;-&apos;, sans commencer par &apos;.&apos;</translation>
    </message>
    <message>
        <source>A run named “%1” already exists; resume it instead</source>
        <translation>Une exécution nommée « %1 » existe déjà ; reprenez-la plutôt</translation>
    </message>
    <message>
        <source>Enter a number such as 0.001 or 1e-3</source>
        <translation>Saisissez un nombre comme 0.001 ou 1e-3</translation>
    </message>
    <message>
        <source>Enter a whole number from 0 to 18446744073709551615</source>
        <translation>Saisissez un entier de 0 à 18446744073709551615</translation>
    </message>
    <message>
        <source>Enter “epoch” or a positive number of steps</source>
        <translation>Saisissez « epoch » ou un nombre de pas positif</translation>
    </message>
    <message>
        <source>%1: expected %2, found %3.</source>
        <translation>%1 : attendu %2, trouvé %3.</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>un nombre entier de %1 à %2</translation>
    </message>
    <message>
        <source>a number greater than %1 and at most %2</source>
        <translation>un nombre supérieur à %1 et au plus égal à %2</translation>
    </message>
    <message>
        <source>a number from %1 to %2</source>
        <translation>un nombre de %1 à %2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>l’une des valeurs %1</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Point de sauvegarde</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Époque</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Pas</translation>
    </message>
    <message>
        <source>1: trains in this window. 2 or more: a data-parallel job of that many processes under torchrun (PyTorch's launcher), each training on its own batch of the size above.</source>
        <translation>1 : entraîne dans cette fenêtre. 2 ou plus : une tâche parallèle sur les données, avec autant de processus sous torchrun (le lanceur de PyTorch), chacun sur son propre lot de la taille ci-dessus.</translation>
    </message>
    <message>
        <source>How often torchrun restarts the whole job from its last checkpoint when a worker is lost.</source>
        <translation>Combien de fois torchrun relance toute la tâche depuis son dernier point de sauvegarde quand un worker est perdu.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH (on Debian: apt install python3-torch)</source>
        <translation>torchrun est introuvable dans le PATH (sous Debian : apt install python3-torch)</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Workers</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Relances</translation>
    </message>
    <message>
        <source>1 (trains in this window)</source>
        <translation>1 (entraîne dans cette fenêtre)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunComparisonView</name>
    <message>
        <source>Cannot compare these runs: %1</source>
        <translation>Impossible de comparer ces exécutions : %1</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunDataView</name>
    <message>
        <source>Cannot read the run list: %1</source>
        <translation>Impossible de lire la liste des exécutions : %1</translation>
    </message>
    <message>
        <source>Cannot read the registry: %1</source>
        <translation>Impossible de lire le registre : %1</translation>
    </message>
    <message>
        <source>Verifying checkpoint #%1…</source>
        <translation>Vérification de la sauvegarde n° %1…</translation>
    </message>
    <message>
        <source>Checkpoint #%1 verified: %2</source>
        <translation>Sauvegarde n° %1 vérifiée : %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged: %2</source>
        <translation>La sauvegarde n° %1 est endommagée : %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged and will not be resumed from: %2</source>
        <translation>La sauvegarde n° %1 est endommagée et ne servira pas à reprendre : %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 unpinned</source>
        <translation>Sauvegarde n° %1 désépinglée</translation>
    </message>
    <message>
        <source>Checkpoint #%1 pinned</source>
        <translation>Sauvegarde n° %1 épinglée</translation>
    </message>
    <message>
        <source>Cannot change the pin: %1</source>
        <translation>Impossible de modifier l’épinglage : %1</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is the head (where training resumes); it cannot be deleted.</source>
        <translation>La sauvegarde n° %1 est la tête (d’où l’entraînement reprend) ; elle ne peut pas être supprimée.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is not one of this run&apos;s.</source>
        <translation>La sauvegarde n° %1 n’appartient pas à cette exécution.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is %2; only a committed checkpoint can be pinned.</source>
        <translation>La sauvegarde n° %1 est %2 ; seule une sauvegarde validée peut être épinglée.</translation>
    </message>
    <message>
        <source>Stop the training of this run before deleting its checkpoints.</source>
        <translation>Arrêtez l’entraînement de cette exécution avant de supprimer ses sauvegardes.</translation>
    </message>
    <message>
        <source>Delete checkpoint?</source>
        <translation>Supprimer la sauvegarde ?</translation>
    </message>
    <message>
        <source>Delete checkpoint #%1 (epoch %2, step %3)? The file is removed; the row stays in the history as deleted.</source>
        <translation>Supprimer la sauvegarde n° %1 (époque %2, pas %3) ? Le fichier est effacé ; la ligne reste dans l’historique comme supprimée.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 deleted</source>
        <translation>Sauvegarde n° %1 supprimée</translation>
    </message>
    <message>
        <source>Cannot delete checkpoint #%1: %2</source>
        <translation>Impossible de supprimer la sauvegarde n° %1 : %2</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>Impossible d’ouvrir %1</translation>
    </message>
    <message>
        <source>checksum %1 matches the footer and the registry (%2 bytes)</source>
        <translation>somme de contrôle %1 conforme au pied et au registre (%2 octets)</translation>
    </message>
    <message numerus="yes">
        <source>Run “%1”: %n event(s) recorded in the registry</source>
        <translation>
            <numerusform>Exécution « %1 » : %n événement enregistré dans le registre</numerusform>
            <numerusform>Exécution « %1 » : %n événements enregistrés dans le registre</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the history of this run: %1</source>
        <translation>Impossible de lire l’historique de cette exécution : %1</translation>
    </message>
    <message>
        <source>Cannot verify checkpoint #%1: %2</source>
        <translation>Impossible de vérifier la sauvegarde n° %1 : %2</translation>
    </message>
    <message>
        <source>It is pinned: you chose to keep it, and retention never deletes it.</source>
        <translation>Il est épinglé : vous avez choisi de le garder, et la rétention ne le supprime jamais.</translation>
    </message>
    <message>
        <source>A branch starts from it: that branch could no longer be rolled back to this point.</source>
        <translation>Une branche en part : on ne pourrait plus revenir à ce point de cette branche.</translation>
    </message>
    <message>
        <source>No file manager could be opened. The checkpoint file is %1 (its path is copied to the clipboard).</source>
        <translation>Aucun gestionnaire de fichiers n’a pu être ouvert. Le fichier du point de sauvegarde est %1 (son chemin est copié dans le presse-papiers).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunListModel</name>
    <message>
        <source>worker %1 on %2: %3 steps, %4 s computing, %5 s of it in the all-reduce</source>
        <translation>worker %1 sur %2 : %3 pas, %4 s de calcul, dont %5 s dans l’all-reduce</translation>
    </message>
    <message numerus="yes">
        <source>torchrun restarted it %n time(s) after a lost worker</source>
        <translation>
            <numerusform>torchrun l’a relancée %n fois après la perte d’un worker</numerusform>
            <numerusform>torchrun l’a relancée %n fois après la perte d’un worker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A data-parallel job of %n worker(s) under torchrun</source>
        <translation>
            <numerusform>Une tâche parallèle de %n worker sous torchrun</numerusform>
            <numerusform>Une tâche parallèle de %n workers sous torchrun</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n worker(s)</source>
        <translation>
            <numerusform>%1 · %n worker</numerusform>
            <numerusform>%1 · %n workers</numerusform>
        </translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>created</source>
        <translation>créée</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en cours</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>en pause</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrompue</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>préemptée</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêtée</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminée</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échouée</translation>
    </message>
    <message numerus="yes">
        <source>%n branch(es): each rollback starts a new one; the old ones are kept</source>
        <translation>
            <numerusform>%n branche : chaque retour arrière en crée une nouvelle ; les anciennes sont gardées</numerusform>
            <numerusform>%n branches : chaque retour arrière en crée une nouvelle ; les anciennes sont gardées</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progression</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perte</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitude</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Préc. valid.</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>Branches</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Périphérique</translation>
    </message>
    <message>
        <source>%1 % (%2/%3)</source>
        <translation>%1 % (%2/%3)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::StatusBarFields</name>
    <message>
        <source>Checkpoints copied to %1: %2 uploaded, %3 pending, %4 failed (retried)</source>
        <translation>Sauvegardes copiées vers %1 : %2 envoyées, %3 en attente, %4 en échec (réessayées)</translation>
    </message>
    <message>
        <source>S3: %1 uploaded, %2 waiting (%3 MB)</source>
        <translation>S3 : %1 envoyés, %2 en attente (%3 Mo)</translation>
    </message>
    <message>
        <source>S3: all %1 uploaded</source>
        <translation>S3 : les %1 sont envoyés</translation>
    </message>
    <message>
        <source>Diverged (NaN or infinite loss)</source>
        <translation>Divergé (perte NaN ou infinie)</translation>
    </message>
    <message>
        <source>Where the model trains</source>
        <translation>Où le modèle s’entraîne</translation>
    </message>
    <message>
        <source>Training steps per second in this session</source>
        <translation>Pas d’entraînement par seconde dans cette session</translation>
    </message>
    <message>
        <source>Estimated time until the last step</source>
        <translation>Temps estimé jusqu’au dernier pas</translation>
    </message>
    <message>
        <source>Time since the last checkpoint was committed: the work a crash now would lose</source>
        <translation>Temps depuis la dernière sauvegarde validée : le travail qu’un plantage maintenant ferait perdre</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>Chargement</translation>
    </message>
    <message>
        <source>Replaying to the chosen step</source>
        <translation>Rejeu jusqu’au pas choisi</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entraînement</translation>
    </message>
    <message>
        <source>Validating</source>
        <translation>Validation</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>Sauvegarde</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>En pause</translation>
    </message>
    <message>
        <source>Waiting for disk space</source>
        <translation>En attente d’espace disque</translation>
    </message>
    <message>
        <source>validating %1/%2</source>
        <translation>validation %1/%2</translation>
    </message>
    <message>
        <source>%1 — training in another process</source>
        <translation>%1 — entraîné par un autre processus</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Terminé</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Device: %1</source>
        <translation>Périphérique : %1</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 pas/s</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>Fin dans %1</translation>
    </message>
    <message>
        <source>epoch %1/%2 · step %3/%4</source>
        <translation>époque %1/%2 · pas %3/%4</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Inactif</translation>
    </message>
    <message>
        <source>Device: –</source>
        <translation>Périphérique : –</translation>
    </message>
    <message>
        <source>– steps/s</source>
        <translation>– pas/s</translation>
    </message>
    <message>
        <source>ETA –</source>
        <translation>Fin dans –</translation>
    </message>
    <message>
        <source>No checkpoint yet</source>
        <translation>Aucune sauvegarde pour l’instant</translation>
    </message>
    <message>
        <source>Last checkpoint %1 ago</source>
        <translation>Dernière sauvegarde il y a %1</translation>
    </message>
    <message>
        <source>Interrupted (crash)</source>
        <translation>Interrompu (plantage)</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Préempté</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Arrêté</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échec</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::TrainingController</name>
    <message>
        <source>&lt;b&gt;Resumed on another device.&lt;/b&gt; Checkpoint #%1 was trained on another device, GPU model or library version than this session trains on. Training goes on, but its bits will differ from a run that never stopped; the Events pane says what differs.</source>
        <translation>&lt;b&gt;Reprise sur un autre appareil.&lt;/b&gt; Le point de sauvegarde n° %1 a été entraîné sur un autre appareil, modèle de GPU ou version de bibliothèque que cette session. L&apos;entraînement continue, mais ses bits différeront d&apos;une exécution jamais interrompue ; le volet Événements dit ce qui diffère.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Low disk.&lt;/b&gt; The home&apos;s file system is running out of room for checkpoints: %1</source>
        <translation>&lt;b&gt;Disque presque plein.&lt;/b&gt; Le système de fichiers du dossier de travail manque de place pour les points de sauvegarde : %1</translation>
    </message>
    <message>
        <source>epoch %1, step %2</source>
        <translation>époque %1, pas %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Training diverged&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;L’entraînement a divergé&lt;/b&gt; : %1</translation>
    </message>
    <message>
        <source>Roll back to the last good checkpoint…</source>
        <translation>Revenir au dernier point de sauvegarde sain…</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuer</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>Une exécution s’entraîne déjà dans cette fenêtre ; arrêtez-la d’abord.</translation>
    </message>
    <message>
        <source>Starting run “%1”…</source>
        <translation>Lancement de l’exécution « %1 »…</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it before resuming.</source>
        <translation>Une exécution s’entraîne déjà dans cette fenêtre ; arrêtez-la avant de reprendre.</translation>
    </message>
    <message>
        <source>Resuming run “%1”…</source>
        <translation>Reprise de l’exécution « %1 »…</translation>
    </message>
    <message>
        <source>Run “%1” was trained on the dataset in %2, which is not there any more.</source>
        <translation>L’exécution « %1 » a été entraînée sur le jeu de données de %2, qui n’y est plus.</translation>
    </message>
    <message>
        <source>Where is the dataset of run “%1” now? (It was in %2)</source>
        <translation>Où se trouve maintenant le jeu de données de l’exécution « %1 » ? (Il était dans %2)</translation>
    </message>
    <message>
        <source>Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume again and choose the folder it moved to.</source>
        <translation>Pas de reprise : l’exécution « %1 » a été entraînée sur le jeu de données de %2, qui n’y est plus. Reprenez de nouveau et choisissez le dossier où il a été déplacé.</translation>
    </message>
    <message>
        <source>Resuming run “%1” on the dataset in %2 (checked against what it was trained on).</source>
        <translation>Reprise de l’exécution « %1 » sur le jeu de données de %2 (vérifié par rapport à celui de son entraînement).</translation>
    </message>
    <message>
        <source>Select a checkpoint in the table first.</source>
        <translation>Choisissez d’abord une sauvegarde dans le tableau.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.</source>
        <translation>La sauvegarde n° %1 est endommagée (%2) : impossible d’en reprendre ; choisissez-en une autre.</translation>
    </message>
    <message>
        <source>Roll back?</source>
        <translation>Revenir en arrière ?</translation>
    </message>
    <message>
        <source>Resume from checkpoint #%1 (epoch %2, step %3)? It is older than the head, so training continues on a new branch; the current branch stays visible.</source>
        <translation>Reprendre depuis la sauvegarde n° %1 (époque %2, pas %3) ? Elle est plus ancienne que la tête : l’entraînement continue sur une nouvelle branche ; la branche actuelle reste visible.</translation>
    </message>
    <message>
        <source>Stop the training first, then resume from a point on the plot.</source>
        <translation>Arrêtez d’abord l’entraînement, puis reprenez depuis un point du graphique.</translation>
    </message>
    <message>
        <source>Resume from the plot?</source>
        <translation>Reprendre depuis le graphique ?</translation>
    </message>
    <message>
        <source>Resume at epoch %1, step %2 (global step %3)? Training restarts from the nearest checkpoint before it and replays the steps in between; later steps stay on the old branch.</source>
        <translation>Reprendre à l’époque %1, pas %2 (pas global %3) ? L’entraînement repart de la sauvegarde précédente la plus proche et rejoue les pas intermédiaires ; les pas suivants restent sur l’ancienne branche.</translation>
    </message>
    <message>
        <source>Stopping: writing a checkpoint, then stopping…</source>
        <translation>Arrêt : écriture d’une sauvegarde, puis arrêt…</translation>
    </message>
    <message>
        <source>Simulating a crash now.</source>
        <translation>Simulation d’un plantage maintenant.</translation>
    </message>
    <message>
        <source>A crash will be simulated after global step %1.</source>
        <translation>Un plantage sera simulé après le pas global %1.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preemption notice.&lt;/b&gt; The instance will be reclaimed in &lt;b&gt;%1&lt;/b&gt;. Writing an emergency checkpoint…</source>
        <translation>&lt;b&gt;Avis de préemption.&lt;/b&gt; L’instance sera reprise dans &lt;b&gt;%1&lt;/b&gt;. Écriture d’une sauvegarde d’urgence…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preempted.&lt;/b&gt; %1&lt;br&gt;The instance would be reclaimed in &lt;b&gt;%2&lt;/b&gt;.</source>
        <translation>&lt;b&gt;Préempté.&lt;/b&gt; %1&lt;br&gt;L’instance serait reprise dans &lt;b&gt;%2&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Instance reclaimed.&lt;/b&gt; %1&lt;br&gt;Resume to continue from the emergency checkpoint.</source>
        <translation>&lt;b&gt;Instance reprise.&lt;/b&gt; %1&lt;br&gt;Reprenez pour continuer depuis la sauvegarde d’urgence.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A checkpoint could not be written:&lt;/b&gt; %1&lt;br&gt;Training is paused; the previous checkpoint and the registry are intact. Free some space, then continue.</source>
        <translation>&lt;b&gt;Une sauvegarde n’a pas pu être écrite :&lt;/b&gt; %1&lt;br&gt;L’entraînement est en pause ; la sauvegarde précédente et le registre sont intacts. Libérez de l’espace, puis continuez.</translation>
    </message>
    <message>
        <source>Training could not run: %1</source>
        <translation>L’entraînement n’a pas pu démarrer : %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Crashed&lt;/b&gt; (simulated): %1. “Resume” continues from the latest checkpoint; to go further back, select one in the Checkpoints table and use “Resume from here”.</source>
        <translation>&lt;b&gt;Planté&lt;/b&gt; (simulé) : %1. « Reprendre » continue depuis le dernier point de sauvegarde ; pour revenir plus loin, sélectionnez-en un dans le tableau Points de sauvegarde et utilisez « Reprendre d’ici ».</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>L’entraînement a échoué : %1</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Arrêté : %1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>Terminé : %1</translation>
    </message>
    <message>
        <source>%1 received: closing.</source>
        <translation>%1 reçu : fermeture.</translation>
    </message>
    <message>
        <source>%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.</source>
        <translation>%1 reçu : un avis de préemption. Savepoint se ferme une fois la sauvegarde d’urgence écrite.</translation>
    </message>
    <message>
        <source>The armed crash is disarmed.</source>
        <translation>Le plantage armé est désarmé.</translation>
    </message>
    <message numerus="yes">
        <source>Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, with %Ln step(s) past this point, stays in history.</source>
        <translation>
            <numerusform>Reprendre à l’époque %1, pas %2 (pas global %3) ? Cela crée une nouvelle branche ; la branche actuelle, avec %Ln pas après ce point, reste dans l’historique.</numerusform>
            <numerusform>Reprendre à l’époque %1, pas %2 (pas global %3) ? Cela crée une nouvelle branche ; la branche actuelle, avec %Ln pas après ce point, reste dans l’historique.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RollbackDialog</name>
    <message>
        <source>Roll back to the last good checkpoint</source>
        <translation>Revenir au dernier point de sauvegarde sain</translation>
    </message>
    <message>
        <source>Training diverged. Roll back to checkpoint #%1 (%2) and continue on a new branch with a smaller learning rate; the branch that diverged is kept.</source>
        <translation>L’entraînement a divergé. Revenir au point de sauvegarde n° %1 (%2) et continuer sur une nouvelle branche avec un taux d’apprentissage plus petit ; la branche qui a divergé est conservée.</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>Revenir en arrière</translation>
    </message>
    <message>
        <source>Enter a number such as 0.001 or 1e-3</source>
        <translation>Saisissez un nombre comme 0.001 ou 1e-3</translation>
    </message>
    <message>
        <source>Expected %1; found %2.</source>
        <translation>Attendu : %1 ; trouvé : %2.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::JobController</name>
    <message>
        <source>Kill a worker</source>
        <translation>Tuer un worker</translation>
    </message>
    <message>
        <source>SIGKILL, as if its machine were lost. The other workers stop too; torchrun restarts the job from its last checkpoint.</source>
        <translation>SIGKILL, comme si sa machine était perdue. Les autres workers s’arrêtent aussi ; torchrun relance la tâche depuis son dernier point de sauvegarde.</translation>
    </message>
    <message numerus="yes">
        <source>Starting run “%1” with %n worker(s) under torchrun (up to %2 restart(s))…</source>
        <translation>
            <numerusform>Démarrage de l’exécution « %1 » avec %n worker sous torchrun (jusqu’à %2 relance(s))…</numerusform>
            <numerusform>Démarrage de l’exécution « %1 » avec %n workers sous torchrun (jusqu’à %2 relance(s))…</numerusform>
        </translation>
    </message>
    <message>
        <source>No worker is running right now (the job may be restarting).</source>
        <translation>Aucun worker ne tourne en ce moment (la tâche est peut-être en train de redémarrer).</translation>
    </message>
    <message>
        <source>Worker %1 (process %2)</source>
        <translation>Worker %1 (processus %2)</translation>
    </message>
    <message>
        <source>Killed worker %1 (SIGKILL to process %2).</source>
        <translation>Worker %1 tué (SIGKILL au processus %2).</translation>
    </message>
    <message>
        <source>Preemption notice (SIGTERM) sent to the job: every worker stops at the same step and one emergency checkpoint is written.</source>
        <translation>Avis de préemption (SIGTERM) envoyé à la tâche : chaque worker s’arrête au même pas et un point de sauvegarde d’urgence est écrit.</translation>
    </message>
    <message>
        <source>worker %1: %2</source>
        <translation>worker %1 : %2</translation>
    </message>
    <message>
        <source>torchrun: %1</source>
        <translation>torchrun : %1</translation>
    </message>
    <message>
        <source>The job of run “%1” finished.</source>
        <translation>La tâche de l’exécution « %1 » est terminée.</translation>
    </message>
    <message>
        <source>The job of run “%1” stopped with a checkpoint; Resume continues it.</source>
        <translation>La tâche de l’exécution « %1 » s’est arrêtée avec un point de sauvegarde ; Reprendre la poursuit.</translation>
    </message>
    <message>
        <source>The job of run “%1” ended with exit status %2 (a worker failed and no restart was left, or a worker refused the settings: see the Events pane).</source>
        <translation>La tâche de l’exécution « %1 » s’est terminée avec le code %2 (un worker a échoué sans relance restante, ou un worker a refusé les réglages : voir le panneau Événements).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::DataParallelJob</name>
    <message>
        <source>A data-parallel job is already running from this window; stop it first.</source>
        <translation>Une tâche parallèle tourne déjà depuis cette fenêtre ; arrêtez-la d’abord.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH: data-parallel jobs use PyTorch's launcher (on Debian: apt install python3-torch).</source>
        <translation>torchrun est introuvable dans le PATH : les tâches parallèles utilisent le lanceur de PyTorch (sous Debian : apt install python3-torch).</translation>
    </message>
    <message>
        <source>savepoint-cli was not found beside this program or on PATH: each worker of the job is one.</source>
        <translation>savepoint-cli est introuvable à côté de ce programme ou dans le PATH : chaque worker de la tâche en est un.</translation>
    </message>
    <message>
        <source>torchrun (%1) did not start: %2</source>
        <translation>torchrun (%1) n’a pas démarré : %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RemoteController</name>
    <message>
        <source>Nothing was pulled: %1</source>
        <translation>Rien n’a été téléchargé : %1</translation>
    </message>
    <message>
        <source>Pulled run “%1” from %2 (checkpoints verified: %3, refused: %4); Resume continues from checkpoint #%5.</source>
        <translation>Exécution « %1 » téléchargée depuis %2 (sauvegardes vérifiées : %3, refusées : %4) ; Reprendre continue depuis la sauvegarde n° %5.</translation>
    </message>
    <message>
        <source>Pulling from %1…</source>
        <translation>Téléchargement depuis %1…</translation>
    </message>
    <message>
        <source>Remote storage refused: %1. Training goes on; its checkpoints are uploaded by a later resume that reaches the store.</source>
        <translation>Le stockage distant a refusé : %1. L’entraînement continue ; ses sauvegardes seront envoyées par une reprise ultérieure qui atteint le stockage.</translation>
    </message>
    <message>
        <source>Remote storage refused: %1</source>
        <translation>Le stockage distant a refusé : %1</translation>
    </message>
    <message>
        <source>Checkpoints of “%1” are uploaded to %2 as they are committed.</source>
        <translation>Les sauvegardes de « %1 » sont envoyées vers %2 à mesure qu’elles sont validées.</translation>
    </message>
    <message>
        <source>Checking the remote storage %1…</source>
        <translation>Vérification du stockage distant %1…</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SystemPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 Gio</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 Mio</translation>
    </message>
    <message>
        <source>This process and machine</source>
        <translation>Ce processus et cette machine</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>The training process&apos;s CPU time over the last second; 100 % is one core.</source>
        <translation>Le temps CPU du processus d&apos;entraînement pendant la dernière seconde ; 100 % est un cœur.</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>The training process&apos;s resident memory.</source>
        <translation>La mémoire résidente du processus d&apos;entraînement.</translation>
    </message>
    <message>
        <source>Available memory</source>
        <translation>Mémoire disponible</translation>
    </message>
    <message>
        <source>Memory the machine can still give without swapping.</source>
        <translation>La mémoire que la machine peut encore donner sans recourir au swap.</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Écrit</translation>
    </message>
    <message>
        <source>Bytes the training process has written to storage: checkpoints and the registry.</source>
        <translation>Octets que le processus d&apos;entraînement a écrits sur le stockage : points de sauvegarde et registre.</translation>
    </message>
    <message>
        <source>Free disk</source>
        <translation>Disque libre</translation>
    </message>
    <message>
        <source>Free space on the file system of the home, where checkpoints go.</source>
        <translation>Espace libre sur le système de fichiers du dossier de travail, où vont les points de sauvegarde.</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Mémoire (Mio)</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Utilisation</translation>
    </message>
    <message>
        <source>Share of the last sample period the GPU was running kernels.</source>
        <translation>Part de la dernière période d&apos;échantillonnage pendant laquelle le GPU exécutait des noyaux.</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Mémoire GPU</translation>
    </message>
    <message>
        <source>Memory in use on the GPU (every process), and its total.</source>
        <translation>Mémoire utilisée sur le GPU (tous processus confondus), et son total.</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Température</translation>
    </message>
    <message>
        <source>The GPU&apos;s core temperature.</source>
        <translation>La température du cœur du GPU.</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Puissance</translation>
    </message>
    <message>
        <source>The board&apos;s power draw.</source>
        <translation>La consommation électrique de la carte.</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>Horloge SM</translation>
    </message>
    <message>
        <source>The streaming multiprocessors&apos; clock: lower than usual means throttling.</source>
        <translation>L&apos;horloge des multiprocesseurs : plus basse que d&apos;habitude, le GPU se bride.</translation>
    </message>
    <message>
        <source>Throttling</source>
        <translation>Bridage</translation>
    </message>
    <message>
        <source>Why the GPU holds its clocks down, as the driver says it (power cap, heat...).</source>
        <translation>Pourquoi le GPU bride ses horloges, selon le pilote (limite de puissance, chaleur…).</translation>
    </message>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>Mémoire GPU (Mio)</translation>
    </message>
    <message>
        <source>%1 over the run&apos;s sessions, a sample a second</source>
        <translation>%1 sur les sessions de l&apos;exécution, un échantillon par seconde</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU : %1</translation>
    </message>
    <message>
        <source>No samples yet: telemetry is taken while a run trains.</source>
        <translation>Pas encore d&apos;échantillons : la télémétrie est relevée pendant l&apos;entraînement.</translation>
    </message>
    <message>
        <source>No GPU readings: the run trains on the CPU, or this machine has no NVIDIA driver.</source>
        <translation>Pas de mesures GPU : l&apos;exécution s&apos;entraîne sur le CPU, ou cette machine n&apos;a pas de pilote NVIDIA.</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation>%1 MHz</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
</context>
<context>
    <name>RemedyWords</name>
    <message>
        <source>The runs of this home are in the Runs list.</source>
        <translation>Les exécutions de ce dossier sont dans la liste Exécutions.</translation>
    </message>
    <message>
        <source>Select run '%1' in the Runs list and press Resume, or pick another name.</source>
        <translation>Sélectionnez l’exécution « %1 » dans la liste Exécutions et cliquez sur Reprendre, ou choisissez un autre nom.</translation>
    </message>
    <message>
        <source>Choose a checkpoint of run '%1' in the Checkpoints table.</source>
        <translation>Choisissez un point de sauvegarde de l’exécution « %1 » dans le tableau Points de sauvegarde.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it.</source>
        <translation>Remettez le fichier du modèle de l’exécution « %1 » là où l’exécution l’a enregistré.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it; training can follow a moved file, export cannot.</source>
        <translation>Remettez le fichier du modèle de l’exécution « %1 » là où l’exécution l’a enregistré ; l’entraînement peut suivre un fichier déplacé, l’export non.</translation>
    </message>
    <message>
        <source>Put the dataset file of run '%1' back where the run recorded it.</source>
        <translation>Remettez le fichier du jeu de données de l’exécution « %1 » là où l’exécution l’a enregistré.</translation>
    </message>
    <message>
        <source>If the dataset folder of run '%1' moved, press Resume and choose the folder it moved to.</source>
        <translation>Si le dossier du jeu de données de l’exécution « %1 » a été déplacé, cliquez sur Reprendre et choisissez son nouveau dossier.</translation>
    </message>
    <message>
        <source>Leave the model file empty: the run's built-in model goes with it.</source>
        <translation>Laissez le fichier du modèle vide : le modèle intégré de l’exécution la suit.</translation>
    </message>
    <message>
        <source>Leave the dataset as it is: the run's built-in dataset goes with it.</source>
        <translation>Laissez le jeu de données tel quel : le jeu intégré de l’exécution la suit.</translation>
    </message>
    <message>
        <source>Choose cpu or auto as the Device in the New run dialog.</source>
        <translation>Choisissez cpu ou auto comme Périphérique dans la fenêtre Nouvelle exécution.</translation>
    </message>
    <message>
        <source>Choose the last good checkpoint of run '%1' in the Checkpoints table and roll back to it.</source>
        <translation>Choisissez le dernier bon point de sauvegarde de l’exécution « %1 » dans le tableau Points de sauvegarde et revenez-y.</translation>
    </message>
    <message>
        <source>Roll back to checkpoint #%1 (%2), the newest one before it.</source>
        <translation>Revenez au point de sauvegarde n° %1 (%2), le plus récent avant ce point.</translation>
    </message>
    <message>
        <source>Roll back to the start of the run, the newest point before it.</source>
        <translation>Revenez au début de l’exécution, le point le plus récent avant celui-ci.</translation>
    </message>
    <message>
        <source>Name both the epoch and the step to resume after.</source>
        <translation>Indiquez à la fois l’époque et l’étape après lesquelles reprendre.</translation>
    </message>
    <message>
        <source>Select two or more runs to compare.</source>
        <translation>Sélectionnez au moins deux exécutions à comparer.</translation>
    </message>
    <message>
        <source>Pull run '%1' into another home, or resume it here.</source>
        <translation>Récupérez l’exécution « %1 » dans un autre dossier, ou reprenez-la ici.</translation>
    </message>
    <message>
        <source>Resume '%1'</source>
        <translation>Reprendre « %1 »</translation>
    </message>
    <message>
        <source>Show its checkpoints</source>
        <translation>Voir ses points de sauvegarde</translation>
    </message>
    <message>
        <source>Train on the CPU</source>
        <translation>Entraîner sur le CPU</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SessionOutcomeWords</name>
    <message>
        <source>epoch %1, step %2</source>
        <translation>époque %1, pas %2</translation>
    </message>
    <message>
        <source>the loss became NaN at %1</source>
        <translation>la perte est devenue NaN à %1</translation>
    </message>
    <message>
        <source>the loss became infinite at %1</source>
        <translation>la perte est devenue infinie à %1</translation>
    </message>
    <message>
        <source>the gradient of %1 became NaN or infinite at %2</source>
        <translation>le gradient de %1 est devenu NaN ou infini à %2</translation>
    </message>
    <message>
        <source>%1. No checkpoint was saved before it: use “New run…” with a learning rate smaller than %2.</source>
        <translation>%1. Aucun point de sauvegarde n’a été écrit avant : utilisez « Nouvelle exécution… » avec un taux d’apprentissage inférieur à %2.</translation>
    </message>
    <message>
        <source>the last good checkpoint is #%1 at %2</source>
        <translation>le dernier point de sauvegarde sain est le n° %1, à %2</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “Roll back to the last good checkpoint…” with a learning rate smaller than %3.</source>
        <translation>%1 ; %2. Une simple reprise divergerait à nouveau : utilisez « Revenir au dernier point de sauvegarde sain… » avec un taux d’apprentissage inférieur à %3.</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “New run…” with a learning rate smaller than %3.</source>
        <translation>%1 ; %2. Une simple reprise divergerait à nouveau : utilisez « Nouvelle exécution… » avec un taux d’apprentissage inférieur à %3.</translation>
    </message>
    <message>
        <source>Stopped at %1, which a checkpoint already holds.</source>
        <translation>Arrêté à %1, qu’un point de sauvegarde contient déjà.</translation>
    </message>
    <message>
        <source>Emergency checkpoint at %1 written in %2 ms of the %3 s grace period; stopped.</source>
        <translation>Sauvegarde d’urgence à %1 écrite en %2 ms sur les %3 s du délai de grâce ; arrêté.</translation>
    </message>
    <message>
        <source>Too late: a real instance would have been gone.</source>
        <translation>Trop tard : une vraie instance aurait déjà disparu.</translation>
    </message>
    <message>
        <source>Stopped at %1, but the emergency checkpoint could not be written.</source>
        <translation>Arrêté à %1, mais la sauvegarde d’urgence n’a pas pu être écrite.</translation>
    </message>
    <message>
        <source>Stopped at %1; worker 0 writes the job&apos;s emergency checkpoint.</source>
        <translation>Arrêté à %1 ; le worker 0 écrit la sauvegarde d’urgence de la tâche.</translation>
    </message>
    <message>
        <source>after %1 (global step %2); nothing beyond the regular checkpoints was saved</source>
        <translation>après %1 (pas global %2) ; rien n’a été sauvegardé au-delà des points de sauvegarde réguliers</translation>
    </message>
    <message>
        <source>during the validation after %1; the epoch&apos;s validation was not recorded</source>
        <translation>pendant la validation après %1 ; la validation de l’époque n’a pas été enregistrée</translation>
    </message>
    <message>
        <source>worker %1 was lost at %2</source>
        <translation>le worker %1 a été perdu à %2</translation>
    </message>
    <message>
        <source>a worker was lost at %1</source>
        <translation>un worker a été perdu à %1</translation>
    </message>
    <message>
        <source>%1 steps, validation loss %2, accuracy %3</source>
        <translation>%1 pas, perte de validation %2, exactitude %3</translation>
    </message>
    <message>
        <source>run “%1” already finished at global step %2; nothing to resume (to roll back, select an earlier checkpoint in the Checkpoints table and use “Resume from here”)</source>
        <translation>l’exécution « %1 » est déjà terminée au pas global %2 ; rien à reprendre (pour revenir en arrière, sélectionnez un point de sauvegarde antérieur dans le tableau Points de sauvegarde et utilisez « Reprendre d’ici »)</translation>
    </message>
    <message>
        <source>by request at %1 (global step %2)</source>
        <translation>à la demande, à %1 (pas global %2)</translation>
    </message>
    <message>
        <source>checkpoints could not be written; gave up after retries</source>
        <translation>les points de sauvegarde n’ont pas pu être écrits ; abandon après plusieurs essais</translation>
    </message>
    <message>
        <source>checkpoints cannot be committed: %1</source>
        <translation>les points de sauvegarde ne peuvent pas être validés : %1</translation>
    </message>
</context>
</TS>
